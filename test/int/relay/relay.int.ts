import t from 'tap';
import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import { AccountOpened } from '../../../events/account/index.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { decodeEvent } from '../../../infra/kafka/codec.ts';
import { eventsTopic, kafkaGroupId } from '../../../infra/kafka/client.ts';
import { createLogger } from '../../../infra/logger.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { RELAY_GROUP, startRelay } from '../../../services/relay/relay.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { readTopic } from '../../helpers/topicReader.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';

registerTestEvents();

const log = createLogger('test-relay');
const now = new Date();

t.test(
  'transactions committing out of order: the relay loses nothing and keeps commit order per account',
  async (t) => {
    const { pool } = await testDatabase(t);
    const { kafka, settings } = await testKafka(t, 2);
    const relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
    const reader = await readTopic(kafka, settings);
    t.teardown(async () => {
      await reader.stop();
      await relay.stop();
    });

    const first = await pool.connect();
    const second = await pool.connect();
    t.teardown(() => {
      first.release();
      second.release();
    });
    await first.query('BEGIN');
    await appendToStream(first, {
      streamId: 'test-one',
      accountId: 'acc_1',
      expectedVersion: 0,
      now,
      events: [TestHappened({ n: 1, note: 'began first, commits last' })],
    });
    await second.query('BEGIN');
    await appendToStream(second, {
      streamId: 'test-two',
      accountId: 'acc_1',
      expectedVersion: 0,
      now,
      events: [TestHappened({ n: 2, note: 'began second, commits first' })],
    });
    await second.query('COMMIT');
    await new Promise((r) => setTimeout(r, 1500));
    t.equal(reader.messages.length, 0, 'nothing is published while an older transaction is still open');

    await first.query('COMMIT');
    await eventually(async () => reader.messages.length === 2, 30_000, 'both events on the topic');
    const decoded = await Promise.all(reader.messages.map((m) => decodeEvent(m.value, m.headers)));
    t.same(
      decoded.map((e) => (e.payload as { n: number }).n),
      [1, 2],
      'in transaction order, one partition for the account',
    );
    t.ok(
      reader.messages.every((m) => m.key === 'acc_1'),
      'keyed by account id',
    );
    t.same(
      reader.messages.map((m) => m.headers['event-type']),
      ['TestHappened', 'TestHappened'],
    );
  },
);

t.test(
  'a relay that crashed after sending and before its checkpoint publishes again; consumers apply once',
  async (t) => {
    const { pool } = await testDatabase(t);
    await pool.query('CREATE TABLE applied (event_id text, n integer)');
    const { kafka, settings } = await testKafka(t, 2);
    let relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
    for (let n = 1; n <= 20; n++) {
      await withTransaction(pool, (tx) =>
        appendToStream(tx, {
          streamId: 'test-a',
          accountId: 'acc_a',
          expectedVersion: n - 1,
          now,
          events: [TestHappened({ n, note: null })],
        }),
      );
    }
    const reader = await readTopic(kafka, settings);
    await eventually(async () => reader.messages.length === 20, 30_000, 'first publication');
    await relay.stop();
    // The state a crash between Kafka's ack and the checkpoint leaves behind: the checkpoint is older.
    await pool.query('DELETE FROM subscription_checkpoints WHERE group_id = $1', [RELAY_GROUP]);
    relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
    await eventually(async () => reader.messages.length === 40, 30_000, 'second publication of the same events');

    const subscriber = makeSubscriber('kafka', pool, settings);
    await subscriber.subscribe({
      groupId: 'after-crash',
      async handle(events, tx) {
        for (const e of events)
          await tx.query('INSERT INTO applied VALUES ($1, $2)', [e.id, (e.payload as { n: number }).n]);
      },
    });
    await eventually(
      async () => (await pool.query('SELECT count(*)::int AS c FROM applied')).rows[0].c >= 20,
      30_000,
      'the consumer to apply',
    );
    // Both copies are on the topic; give the consumer time to have read the second one too.
    // Skipped copies move only the offset committed to Kafka (PostgreSQL's checkpoint already covers them).
    const admin = kafka.admin();
    await admin.connect();
    await eventually(
      async () => {
        const [topic] = await admin.fetchOffsets({
          groupId: kafkaGroupId(settings.topicPrefix, 'after-crash'),
          topics: [eventsTopic(settings.topicPrefix)],
        });
        return topic!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0) >= 40;
      },
      30_000,
      'the consumer to read past the copies',
    );
    await admin.disconnect();
    const rows = (await pool.query<{ n: number }>('SELECT n FROM applied ORDER BY n')).rows.map((r) => r.n);
    t.same(
      rows,
      Array.from({ length: 20 }, (_, i) => i + 1),
      'each event applied exactly once despite two copies on the topic',
    );
    await subscriber.close();
    await reader.stop();
    await relay.stop();
  },
);

t.test('a standby relay takes over when the leader stops', async (t) => {
  const { pool } = await testDatabase(t);
  const { kafka, settings } = await testKafka(t, 1);
  const a = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
  await eventually(async () => a.isLeader(), 10_000, 'a to lead');
  const b = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
  await new Promise((r) => setTimeout(r, 700));
  t.notOk(b.isLeader(), 'one leader at a time');
  await a.stop();
  await eventually(async () => b.isLeader(), 10_000, 'b to take over');
  const reader = await readTopic(kafka, settings);
  await withTransaction(pool, (tx) =>
    appendToStream(tx, {
      streamId: 'test-x',
      accountId: 'acc_x',
      expectedVersion: 0,
      now,
      events: [TestHappened({ n: 1, note: null })],
    }),
  );
  await eventually(async () => reader.messages.length === 1, 30_000, 'the standby to publish');
  await reader.stop();
  await b.stop();
});

t.test('a data team decodes the topic with the checked-in .avsc files alone', async (t) => {
  const { pool } = await testDatabase(t);
  const { kafka, settings } = await testKafka(t, 1);
  const relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
  const reader = await readTopic(kafka, settings);
  t.teardown(async () => {
    await reader.stop();
    await relay.stop();
  });
  await withTransaction(pool, (tx) =>
    appendToStream(tx, {
      streamId: 'account-acc_9',
      accountId: 'acc_9',
      expectedVersion: 0,
      now,
      correlationId: 'req-1',
      events: [
        AccountOpened({
          accountId: 'acc_9',
          email: 'enc:v1:c2VhbGVk',
          role: 'user',
          unlimited: false,
          webhookSecret: 'vault:whs_abcdefgh',
        }),
      ],
    }),
  );
  await eventually(async () => reader.messages.length === 1, 30_000, 'the event on the topic');
  const m = reader.messages[0]!;
  t.equal(eventsTopic(settings.topicPrefix), `${settings.topicPrefix}.events`);
  const file = new URL(
    `../../../events/account/avro/${m.headers['event-type']}.v${m.headers['event-version']}.avsc`,
    import.meta.url,
  );
  const type = avro.Type.forSchema(JSON.parse(readFileSync(file, 'utf8')));
  const decoded = type.fromBuffer(m.value) as Record<string, any>;
  t.equal(decoded.type, 'AccountOpened');
  t.equal(decoded.accountId, 'acc_9');
  t.equal(decoded.correlationId, 'req-1');
  t.equal(decoded.payload.email, 'enc:v1:c2VhbGVk', 'the sealed address, as written');
});
