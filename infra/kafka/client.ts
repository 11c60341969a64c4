import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { Logger } from '../logger.ts';
import type { SchemaRegistrySettings } from './schemaRegistry.ts';
import { sleep } from '../../core/sleep.ts';

export interface KafkaSettings {
  brokers: string[];
  topicPrefix: string;
  partitions: number;
  clientId?: string;
  /** SCHEMA_REGISTRY_URL/_AUTH: values in Confluent's wire format, schemas registered (codec.ts). */
  schemaRegistry?: SchemaRegistrySettings;
}

export const eventsTopic = (prefix: string): string => `${prefix}.events`;

/**
 * A consumer group's name in Kafka. Group ids are cluster-wide, not per topic: without the prefix,
 * two deployments (or test runs) sharing a cluster would join each other's groups and rebalance
 * each other. Checkpoints in PostgreSQL keep the logical group id.
 */
export const kafkaGroupId = (prefix: string, groupId: string): string => `${prefix}.${groupId}`;

/** kafkajs logs through pino, at warn and above (its info level is chatty about every rebalance). */
export function createKafka(settings: KafkaSettings, log: Logger): Kafka {
  return new Kafka({
    clientId: settings.clientId ?? 'audit-service',
    brokers: settings.brokers,
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }) => {
        const { message, ...extra } = entry;
        if (level <= logLevel.ERROR) log.error(extra, `kafkajs: ${message}`);
        else log.warn(extra, `kafkajs: ${message}`);
      },
    retry: { initialRetryTime: 200, retries: 10 },
  });
}

/**
 * Creates the events topic if missing: data kept forever (retention.ms=-1), deleted never, not
 * compacted, since it is the history data teams read from the beginning.
 */
export async function ensureEventsTopic(kafka: Kafka, settings: KafkaSettings): Promise<void> {
  await ensureTopic(kafka, eventsTopic(settings.topicPrefix), settings.partitions, (brokers) => [
    { name: 'retention.ms', value: '-1' },
    { name: 'retention.bytes', value: '-1' },
    { name: 'cleanup.policy', value: 'delete' },
    { name: 'min.insync.replicas', value: String(Math.min(2, brokers)) },
  ]);
}

/**
 * Creates a topic if missing and returns once every partition has a leader. kafkajs's own
 * `waitForLeaders` is not used: it retries only LEADER_NOT_AVAILABLE, and a broker that has not yet
 * caught up with the controller answers UNKNOWN_TOPIC_OR_PARTITION for a topic just created, which
 * made a service fail to start now and then.
 */
export async function ensureTopic(
  kafka: Kafka,
  topic: string,
  partitions: number,
  configEntries: (brokers: number) => { name: string; value: string }[] = () => [],
): Promise<void> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) {
      const brokers = (await admin.describeCluster()).brokers.length;
      // false when another process created it meanwhile, which is as good.
      await admin.createTopics({
        waitForLeaders: false,
        topics: [
          {
            topic,
            numPartitions: partitions,
            replicationFactor: Math.min(3, brokers),
            configEntries: configEntries(brokers),
          },
        ],
      });
    }
    await waitForLeaders(admin, topic);
  } finally {
    await admin.disconnect();
  }
}

/**
 * A topic another process has just created is listed before its partitions have leaders, and a
 * producer or consumer started then fails ("does not host this topic-partition"): wait for them.
 */
async function waitForLeaders(admin: Admin, topic: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await admin
      .fetchTopicMetadata({ topics: [topic] })
      .then((m) => {
        const partitions = m.topics[0]?.partitions ?? [];
        return partitions.length > 0 && partitions.every((p) => p.leader >= 0);
      })
      .catch(() => false);
    if (ready) return;
    if (Date.now() > deadline)
      throw new Error(`topic ${topic} has no leader for every partition after ${timeoutMs} ms`);
    await sleep(200);
  }
}
