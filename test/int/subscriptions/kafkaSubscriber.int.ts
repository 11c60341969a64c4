import t from 'tap';
import { createLogger } from '../../../infra/logger.ts';
import { startRelay } from '../../../services/relay/relay.ts';
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
