import t from 'tap';
import { randomBytes } from 'node:crypto';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { createKafka, eventsTopic, type KafkaSettings } from '../../../infra/kafka/client.ts';
import { startKafkaCluster } from '../../../infra/local/kafkaCluster.ts';
import { createLogger } from '../../../infra/logger.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { startRelay } from '../../../services/relay/relay.ts';
import { afterDedup, checkHistory } from '../../../bench/cluster/checker.ts';
import { storedRecords, topicRecords } from '../../../bench/cluster/logRecords.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { readTopic } from '../../helpers/topicReader.ts';

registerTestEvents();

// The cluster smoke (about a minute): the relay's producer (idempotent, acks=all) on three brokers
// with min.insync.replicas=2, while the leader of the partition it writes to is SIGKILLed and
// started again. Nothing lost, nothing reordered, no copy past the consumers' de-duplication.
const log = createLogger('test-cluster', 'error');
const ACCOUNTS = 4;
const PER_ACCOUNT = 60;

t.test('the leader broker SIGKILLed under the relay: every event on the topic once, in order', async (t) => {
  const cluster = await startKafkaCluster({ log });
  t.teardown(() => cluster.stop());
  const { pool } = await testDatabase(t);
  const settings: KafkaSettings = {
    brokers: cluster.brokers.split(','),
    topicPrefix: `c${randomBytes(4).toString('hex')}`,
    partitions: 2,
  };
  const kafka = createKafka(settings, log);
  const relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
  t.teardown(() => relay.stop());
  const topic = eventsTopic(settings.topicPrefix);

  const append = async (from: number, to: number) => {
    for (let n = from; n < to; n++)
      for (let a = 0; a < ACCOUNTS; a++)
        await withTransaction(pool, (tx) =>
          appendToStream(tx, {
            streamId: `test-${a}`,
            accountId: `acc_${a}`,
            expectedVersion: n,
            now: new Date(),
            events: [TestHappened({ n, note: 'cluster' })],
          }),
        );
  };
  await append(0, PER_ACCOUNT / 3);
  const leader = await cluster.leaderOf(topic, 0);
  t.ok(leader > 0, `partition 0 has a leader (node ${leader})`);
  const victim = cluster.nodes.find((n) => n.id === leader)!;
  await victim.kill();
  await append(PER_ACCOUNT / 3, (2 * PER_ACCOUNT) / 3); // written while the leader moves
  await victim.restart();
  await append((2 * PER_ACCOUNT) / 3, PER_ACCOUNT);
  t.not(await cluster.leaderOf(topic, 0), -1, 'a leader again after the restart');

  // A data team's consumer reading the whole history afterwards.
  const reader = await readTopic(kafka, settings);
  t.teardown(() => reader.stop());

  await eventually(
    async () => afterDedup(await topicRecords(reader.messages)).applied.length >= ACCOUNTS * PER_ACCOUNT,
    90_000,
    'all events',
  ).catch(async (e: Error) => {
    const cp = await pool.query('SELECT tx_id::text, seq FROM subscription_checkpoints');
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
    throw new Error(
      `${e.message}: read ${reader.messages.length}, on the topic ${JSON.stringify(offsets)}, relay checkpoint ${JSON.stringify(cp.rows)}`,
    );
  });
  const stored = await storedRecords(pool);
  t.equal(stored.length, ACCOUNTS * PER_ACCOUNT);
  const v = checkHistory({
    accepted: [],
    terminal: [],
    generations: { accepted: [], completed: [], failed: [] },
    charges: [],
    refunds: [],
    ledgers: [],
    stored,
    topic: await topicRecords(reader.messages),
    webhookPosts: {},
    maxWebhookAttempts: 3,
    lags: { relay: 0 },
    faults: [],
    submissions: [],
  });
  t.same(v.violations, [], 'no gap, no reorder, no duplicate past de-dup, nothing missing');
  t.comment(
    `topic records ${v.figures.topicRecords}, copies dropped by de-dup ${v.figures.duplicatesDroppedByConsumers}`,
  );
});
