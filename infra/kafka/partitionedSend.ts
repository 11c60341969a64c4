import { Partitioners, type Kafka, type Message, type PartitionMetadata, type Producer } from 'kafkajs';

/**
 * Sends a batch as one produce call per partition, all at once.
 *
 * Why not one call for the whole batch: kafkajs 2.2.4 (sendMessages.js) keeps one answer per
 * broker while it retries, and on a retry sends again only to brokers without an answer. When a
 * partition's leader dies and the partition moves to a broker that has already answered for
 * another partition, that partition's messages are never sent again, and send() resolves as if
 * they were written: the cluster smoke test lost 5 of 240 events that way. A call that targets
 * one partition has one leader at a time, so its retry goes to the new leader.
 *
 * Partitions are chosen as kafkajs's default partitioner does (murmur2 of the key), so the
 * mapping of keys to partitions is the one the topic always had.
 */
export function partitionedSender(producer: Producer, topic: string, partitionCount: number) {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitionCount }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    replicas: [],
    isr: [],
    offlineReplicas: [],
    partitionErrorCode: 0,
  }));
  return async (messages: Message[]): Promise<void> => {
    const byPartition = new Map<number, Message[]>();
    for (const message of messages) {
      const partition = partitioner({ topic, partitionMetadata, message });
      byPartition.set(partition, [...(byPartition.get(partition) ?? []), { ...message, partition }]);
    }
    await Promise.all([...byPartition.values()].map((batch) => producer.send({ topic, acks: -1, messages: batch })));
  };
}

/** The number of partitions the topic has (not the number configured: an existing topic wins). */
export async function partitionCountOf(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    return meta.topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}
