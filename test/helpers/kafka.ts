import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { createKafka, ensureEventsTopic, eventsTopic, type KafkaSettings } from '../../infra/kafka/client.ts';
import { createLogger } from '../../infra/logger.ts';

export const kafkaBrokers = (): string[] => {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) throw new Error('KAFKA_BROKERS is not set: run the suite with `npm test`, which starts Kafka');
  return brokers.split(',');
};

/** Settings with a topic prefix of its own, so test files never read each other's events. */
export async function testKafka(t: Test, partitions = 4): Promise<{ kafka: Kafka; settings: KafkaSettings }> {
  const settings: KafkaSettings = {
    brokers: kafkaBrokers(),
    topicPrefix: `t${randomBytes(5).toString('hex')}`,
    partitions,
  };
  const kafka = createKafka(settings, createLogger('test-kafka'));
  await ensureEventsTopic(kafka, settings);
  t.teardown(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [eventsTopic(settings.topicPrefix)] }).catch(() => undefined);
    await admin.disconnect();
  });
  return { kafka, settings };
}
