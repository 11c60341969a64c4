import t from 'tap';
import { START } from '../../../events/envelope.ts';
import { readLog } from '../../../infra/eventStore/readLog.ts';
import { eventsTopic } from '../../../infra/kafka/client.ts';
import { saveCheckpoint } from '../../../infra/subscriptions/checkpoints.ts';
import { createReadiness } from '../../../services/readiness.ts';
import { RELAY_GROUP } from '../../../services/relay/relay.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { appendRandomAccounts } from '../../helpers/randomLedger.ts';

/**
 * With Kafka, /readyz counts the relay's lag too: events committed to the store and not yet on the
 * topic are events no projection can have read, whatever the projections' own lag says.
 */
t.test('readiness with Kafka: not ready while the relay is behind, ready once it has caught up', async (t) => {
  const db = await testDatabase(t);
  const kafka = await testKafka(t);
  await appendRandomAccounts(db.pool, { accounts: 2, steps: 5, seed: 7, prefix: 'rdy' });
  const stored = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const readiness = createReadiness({ pool: db.pool, kafka, groups: [], maxLag: 2 });

  const behind = await readiness.check();
  t.equal(behind.ready, false, `${stored} events, no relay checkpoint: not ready`);
  t.match(
    behind.checks,
    { postgres: { ok: true }, kafka: { ok: true }, relay: { ok: false, lag: 3 } },
    'counted up to maxLag + 1',
  );

  // The relay's checkpoint at the log's last event: nothing left to publish.
  let log = await readLog(db.pool, { after: START, limit: 1000 });
  await eventually(async () => (log = await readLog(db.pool, { after: START, limit: 1000 })).length === stored);
  await saveCheckpoint(db.pool, RELAY_GROUP, eventsTopic(kafka.settings.topicPrefix), 0, null, {
    position: log.at(-1)!.position,
    kafkaOffset: null,
  });
  const caughtUp = await readiness.check();
  t.match(caughtUp, { ready: true, checks: { relay: { ok: true, lag: 0 } } });

  const withoutKafka = await createReadiness({ pool: db.pool, groups: [], maxLag: 2 }).check();
  t.notOk('relay' in withoutKafka.checks, 'no relay without Kafka: the store is the log');
});
