import t from 'tap';
import { join } from 'node:path';
import { pythonTools } from '../../../infra/local/pythonTools.ts';
import { repoRoot } from '../../../infra/local/kafkaJars.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventsTopic } from '../../../infra/kafka/client.ts';
import { readLog } from '../../../infra/eventStore/readLog.ts';
import { START } from '../../../events/envelope.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { appendRandomAccounts } from '../../helpers/randomLedger.ts';
import { testLog } from '../../helpers/testLog.ts';
import { assertDecodedAsStored } from './fixtures/stockDecoded.ts';

/**
 * What a data team does with the published files and nothing else: a Python consumer (stock
 * confluent-kafka and fastavro) reads the topic the relay wrote and decodes every event with the
 * .avsc files under events/, picking each by the event-type and event-version headers.
 */
t.test('a stock Python consumer decodes every event of the topic with the published .avsc files alone', async (t) => {
  const bin = await pythonTools();
  const db = await testDatabase(t);
  const { kafkaSettings } = await testLog(t, 'kafka', db.pool);
  await appendRandomAccounts(db.pool, { accounts: 12, steps: 12, seed: 7, prefix: 'py' });
  const total = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  // The log shows a transaction once every older one has ended (readLog): wait for all of them.
  let stored = await readLog(db.pool, { after: START, limit: 100_000 });
  await eventually(
    async () => (stored = await readLog(db.pool, { after: START, limit: 100_000 })).length === total,
    30_000,
    'the log to show every event',
  );
  t.ok(stored.length > 100, `${stored.length} events written`);
  await eventually(
    async () => (await db.pool.query(`SELECT 1 FROM subscription_checkpoints WHERE group_id = 'relay'`)).rowCount! > 0,
    60_000,
    'the relay to publish',
  );

  const out = await promisify(execFile)(
    join(bin, 'python'),
    [
      join(repoRoot, 'test', 'python', 'consume_events.py'),
      kafkaSettings!.brokers.join(','),
      eventsTopic(kafkaSettings!.topicPrefix),
      join(repoRoot, 'events'),
      String(stored.length),
      '30',
    ],
    { maxBuffer: 64 << 20 },
  );
  const decoded = out.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
  t.equal(decoded.length, stored.length, 'every event read and decoded');
  assertDecodedAsStored(t, stored, decoded, 'each decoded event equals the stored one, payload and hash link included');
  t.ok(
    decoded.some((d) => typeof d.prevHash === 'string'),
    'credit movements carry their hash link',
  );
});
