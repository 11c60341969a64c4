import type { Kafka, KafkaMessage } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { eventsTopic, type KafkaSettings } from '../../infra/kafka/client.ts';

export interface RawMessage {
  partition: number;
  offset: string;
  key: string;
  headers: Record<string, string>;
  value: Buffer;
}

/** Reads the events topic from the beginning, as a data team's consumer would, into an array. */
export async function readTopic(
  kafka: Kafka,
  settings: KafkaSettings,
): Promise<{ messages: RawMessage[]; stop: () => Promise<void> }> {
  const messages: RawMessage[] = [];
  const consumer = kafka.consumer({ groupId: `reader-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: eventsTopic(settings.topicPrefix), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }: { partition: number; message: KafkaMessage }) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
      messages.push({ partition, offset: message.offset, key: String(message.key), headers, value: message.value! });
    },
  });
  return { messages, stop: () => consumer.disconnect() };
}
