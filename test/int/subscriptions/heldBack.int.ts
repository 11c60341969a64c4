import t from 'tap';
import { START } from '../../../events/envelope.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { readAvailable } from '../../../infra/eventStore/readLog.ts';
import { partitionOf } from '../../../infra/eventStore/schema.ts';
import { createLogger } from '../../../infra/logger.ts';
import type { PoolClient } from '../../../infra/postgres/pool.ts';
import { createStoreSubscriber } from '../../../infra/subscriptions/storeSubscriber.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';

registerTestEvents();

// The safety net far off: an event read here was read because a commit, or a held-back read, said so.
const NET_MS = 60_000;
const WITHIN_MS = 10_000;
const log = createLogger('test-held-back', 'warn');

const append = (tx: PoolClient, accountId: string, n: number) =>
  appendToStream(tx, {
    streamId: `test-${accountId}`,
    accountId,
    expectedVersion: 0,
    now: new Date(),
    events: [TestHappened({ n, note: null })],
  });

t.test('a partition read says when committed events wait behind an older transaction', async (t) => {
  const { pool } = await testDatabase(t);
  const older = await pool.connect();
  t.teardown(() => older.release());
  const partition = partitionOf('acc_late');
  await older.query('BEGIN');
  await older.query('SELECT pg_current_xact_id()'); // an id older than the append's
  const client = await pool.connect();
  await client.query('BEGIN');
  await append(client, 'acc_late', 1);
  await client.query('COMMIT');
  client.release();

  const early = await readAvailable(pool, { after: START, partition, limit: 10 });
  t.same(early.events, [], 'nothing is read past a transaction still running');
  t.equal(early.heldBack, true, 'and the read says that events wait');

  await older.query('COMMIT');
  // Another test's open transaction anywhere in the cluster may hold the log back for a moment.
  let late = early;
  await eventually(
    async () => (late = await readAvailable(pool, { after: START, partition, limit: 10 })).events.length === 1,
    WITHIN_MS,
    'the event',
  );
  t.equal(late.events[0]!.accountId, 'acc_late');
});

t.test('a subscriber reads events held back behind a transaction that appends nothing, when it ends', async (t) => {
  const { pool } = await testDatabase(t);
  // Partition reads answered so far (the real statements run; they are only counted).
  let reads = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    if ((args[0] as { name?: string }).name === 'read_partition') reads++;
    return result;
  };
  const seen: string[] = [];
  const subscriber = createStoreSubscriber(pool, { log, pollMs: NET_MS });
  t.teardown(() => subscriber.close());
  await subscriber.subscribe({
    groupId: 'held-back-test',
    types: ['TestHappened'],
    handle: async (events) => void seen.push(...events.map((e) => e.accountId)),
  });
  // The subscription's first pass reads the empty log; then only commits and held-back reads wake it.
  const first = await pool.connect();
  await first.query('BEGIN');
  await append(first, 'acc_first', 1);
  await first.query('COMMIT');
  first.release();
  await eventually(async () => seen.includes('acc_first'), WITHIN_MS, 'the first event');

  const older = await pool.connect();
  t.teardown(() => older.release());
  await older.query('BEGIN');
  await older.query('SELECT pg_current_xact_id()');
  const client = await pool.connect();
  await client.query('BEGIN');
  await append(client, 'acc_behind', 2);
  const readsBefore = reads;
  await client.query('COMMIT'); // notifies the subscriber, whose read finds the event held back
  client.release();
  await eventually(async () => reads > readsBefore, WITHIN_MS, 'a read after the commit');
  t.notOk(seen.includes('acc_behind'), 'not read while the older transaction runs');
  // Ends without appending: no notification follows, only the held-back reads find the event.
  await older.query('COMMIT');
  await eventually(async () => seen.includes('acc_behind'), WITHIN_MS, 'the held-back event, before the safety net');
  t.ok(seen.includes('acc_behind'));
});
