import t from 'tap';
import { createLogger } from '../../../infra/logger.ts';
import { startRelay } from '../../../services/relay/relay.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';
import { subscriptionContract } from './contract.ts';

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
