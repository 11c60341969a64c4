import t from 'tap';
import { createLogger } from '../../../infra/logger.ts';
import { startRelay } from '../../../services/relay/relay.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';
import { subscriptionContract } from './contract.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { eventsTopic, kafkaGroupId } from '../../../infra/kafka/client.ts';
import { withTransaction, type Pool } from '../../../infra/postgres/pool.ts';
import { loadCheckpoint } from '../../../infra/subscriptions/checkpoints.ts';
import { createKafkaSubscriber } from '../../../infra/subscriptions/kafkaSubscriber.ts';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';

registerTestEvents();

// Events reach Kafka only through the relay, as in production.
subscriptionContract(t, 'kafka', async (t, db) => {
  const { kafka, settings } = await testKafka(t, 4);
  const relay = await startRelay({ pool: db.pool, kafka, settings, log: createLogger('test-relay'), pollMs: 10 });
  const subscriber = makeSubscriber('kafka', db.pool, settings);
  t.teardown(async () => {
    await subscriber.close();
    await relay.stop();
  });
  return { ...db, subscriber, partitions: settings.partitions, kafkaSettings: settings };
});

t.test('kafka: two deployments on one cluster (different topic prefixes) never share a consumer group', async (t) => {
  const db = await testDatabase(t);
  const a = await testKafka(t, 2);
  const b = await testKafka(t, 2);
  const subscribers = [makeSubscriber('kafka', db.pool, a.settings), makeSubscriber('kafka', db.pool, b.settings)];
  t.teardown(() => Promise.all(subscribers.map((s) => s.close())));
  // The same logical group name, as every deployment's projections and pipeline have.
  const subs = await Promise.all(
    subscribers.map((s) => s.subscribe({ groupId: 'projection.audits.v1', handle: async () => undefined })),
  );
  await eventually(
    async () => subs.every((s) => s.assigned().length === 2),
    60_000,
    'each deployment to hold both of its partitions',
  );
  t.same(
    subs.map((s) => s.assigned()),
    [
      [0, 1],
      [0, 1],
    ],
    'each holds every partition of its own topic',
  );
});

/** Appends one TestHappened event to `accountId`'s stream, as its `n`th. */
const appendOne = (pool: Pool, accountId: string, n: number) =>
  withTransaction(pool, (tx) =>
    appendToStream(tx, {
      streamId: `test-${accountId}`,
      accountId,
      expectedVersion: n - 1,
      now: new Date(),
      events: [TestHappened({ n, note: null })],
    }),
  );

/** Counts the writes of a group's checkpoint rows (a trigger: nothing of the subscriber mocked). */
async function countCheckpointWrites(pool: Pool, groupId: string): Promise<() => Promise<number>> {
  await pool.query(`CREATE TABLE checkpoint_writes (group_id text)`);
  await pool.query(`CREATE FUNCTION count_checkpoint_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO checkpoint_writes VALUES (NEW.group_id); RETURN NULL; END $$`);
  await pool.query(`CREATE TRIGGER checkpoint_writes AFTER INSERT OR UPDATE ON subscription_checkpoints
    FOR EACH ROW EXECUTE FUNCTION count_checkpoint_write()`);
  return async () =>
    (await pool.query<{ c: number }>('SELECT count(*)::int AS c FROM checkpoint_writes WHERE group_id = $1', [groupId]))
      .rows[0]!.c;
}

t.test(
  'kafka: batches with none of the group types open no transaction; the checkpoint passes them when the member flushes or stops',
  async (t) => {
    const { pool } = await testDatabase(t);
    const { kafka, settings } = await testKafka(t, 1);
    const relay = await startRelay({ pool, kafka, settings, log: createLogger('test-relay'), pollMs: 10 });
    const log = createLogger('test-kafka-subscriber');
    // A flush far away: within the test, only a stop or an applied batch can write the checkpoint.
    const subscriber = createKafkaSubscriber(pool, { kafka, settings, log, sessionTimeoutMs: 6000, flushMs: 600_000 });
    t.teardown(async () => {
      await subscriber.close();
      await relay.stop();
    });
    const writes = await countCheckpointWrites(pool, 'other-types');
    const seen: number[] = [];
    // The pace setter: a group that handles every event, so each one has reached the consumers.
    await subscriber.subscribe({
      groupId: 'every-type',
      handle: async (events) => void seen.push(...events.map((e) => (e.payload as { n: number }).n)),
    });
    const other = await subscriber.subscribe({
      groupId: 'other-types',
      types: ['AuditCompleted'],
      handle: async () => void t.fail('no event of its types was appended'),
    });
    await eventually(async () => other.assigned().length === 1, 60_000, 'the group to hold its partition');
    for (let n = 1; n <= 5; n++) {
      await appendOne(pool, 'acc_one', n);
      await eventually(async () => seen.length === n, 30_000, `event ${n} to reach the consumers`);
    }
    t.equal(await writes(), 0, 'five relayed commits of other types: no checkpoint written, no transaction');
    await other.stop();
    const cp = await loadCheckpoint(pool, 'other-types', eventsTopic(settings.topicPrefix), 0);
    t.equal(await writes(), 1, 'the stop writes it once');
    t.equal(cp?.kafkaOffset, 5n, 'past all five');
  },
);

t.test('kafka: a member that read past events of other types writes its checkpoint at its next flush', async (t) => {
  const { pool } = await testDatabase(t);
  const { kafka, settings } = await testKafka(t, 1);
  const relay = await startRelay({ pool, kafka, settings, log: createLogger('test-relay'), pollMs: 10 });
  const log = createLogger('test-kafka-subscriber');
  const subscriber = createKafkaSubscriber(pool, { kafka, settings, log, sessionTimeoutMs: 6000, flushMs: 50 });
  t.teardown(async () => {
    await subscriber.close();
    await relay.stop();
  });
  await subscriber.subscribe({
    groupId: 'other-types',
    types: ['AuditCompleted'],
    handle: async () => void t.fail('no event of its types was appended'),
  });
  for (let n = 1; n <= 3; n++) await appendOne(pool, 'acc_one', n);
  const topic = eventsTopic(settings.topicPrefix);
  await eventually(
    async () => (await loadCheckpoint(pool, 'other-types', topic, 0))?.kafkaOffset === 3n,
    60_000,
    'the checkpoint to pass the three events',
  );
  const admin = kafka.admin();
  await admin.connect();
  await eventually(
    async () => {
      const [committed] = await admin.fetchOffsets({
        groupId: kafkaGroupId(settings.topicPrefix, 'other-types'),
        topics: [topic],
      });
      return committed!.partitions[0]!.offset === '3';
    },
    30_000,
    "Kafka's committed offset (for lag tools) to follow",
  );
  await admin.disconnect();
  t.pass('checkpoint and committed offset past the events, nothing applied');
});
