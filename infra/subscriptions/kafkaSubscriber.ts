import type { Consumer, Kafka } from 'kafkajs';
import { comparePositions, type EventEnvelope } from '../../events/envelope.ts';
import type { Logger } from '../logger.ts';
import type { Pool } from '../postgres/pool.ts';
import { applyBatch, DEFAULT_RETRY, type RetryPolicy } from './applyBatch.ts';
import { FencedError, loadCheckpoint } from './checkpoints.ts';
import { trackingSubscriber, type SubscribeOptions, type Subscriber, type Subscription } from './port.ts';
import { decodeEvent } from '../kafka/codec.ts';
import { ensureEventsTopic, eventsTopic, kafkaGroupId, type KafkaSettings } from '../kafka/client.ts';
import { createSchemaRegistry } from '../kafka/schemaRegistry.ts';

export interface KafkaSubscriberOptions {
  kafka: Kafka;
  settings: KafkaSettings;
  log: Logger;
  retry?: RetryPolicy;
  sessionTimeoutMs?: number;
}

/**
 * The Kafka adapter. Offsets live in PostgreSQL with the consumer's writes (committed to Kafka only
 * afterwards, for lag tools). On each batch the stored checkpoint decides what is new: offsets below
 * it were applied already, and events at or before its log position are duplicates a restarted relay
 * published again.
 */
export function createKafkaSubscriber(pool: Pool, options: KafkaSubscriberOptions): Subscriber {
  const topic = eventsTopic(options.settings.topicPrefix);
  const retry = options.retry ?? DEFAULT_RETRY;
  const registry = options.settings.schemaRegistry && createSchemaRegistry(options.settings.schemaRegistry);

  async function subscribe(sub: SubscribeOptions): Promise<Subscription> {
    const log = options.log.child({ groupId: sub.groupId });
    // A role may start before the relay has created the topic: create it (or wait for its leaders).
    await ensureEventsTopic(options.kafka, options.settings);
    const consumer: Consumer = options.kafka.consumer({
      groupId: kafkaGroupId(options.settings.topicPrefix, sub.groupId),
      sessionTimeout: options.sessionTimeoutMs ?? 10_000,
      heartbeatInterval: 1000,
      rebalanceTimeout: 20_000,
      // Latency over batching: the broker answers a fetch as soon as one byte is there (minBytes),
      // and maxWaitTimeInMs bounds how long an empty fetch is held, which in practice is also the
      // polling interval when the data arrives at another broker (kafkajs issues 370 and 1397).
      minBytes: 1,
      maxWaitTimeInMs: 20,
      allowAutoTopicCreation: false,
    });
    let assigned: number[] = [];
    let stopping = false;

    consumer.on(consumer.events.GROUP_JOIN, async ({ payload }) => {
      assigned = [...(payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
      // Start where PostgreSQL says this group is; the per-batch check below stays the authority.
      for (const partition of assigned) {
        const cp = await loadCheckpoint(pool, sub.groupId, topic, partition).catch(() => null);
        if (cp?.kafkaOffset != null) consumer.seek({ topic, partition, offset: cp.kafkaOffset.toString() });
      }
    });
    // Until the next join this member holds nothing: its old partitions may be someone else's.
    consumer.on(consumer.events.REBALANCING, () => {
      assigned = [];
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      log.error({ err: payload.error, restart: payload.restart }, 'kafka consumer crashed');
    });

    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }) => {
        if (stopping || !isRunning() || isStale() || batch.messages.length === 0) return;
        const previous = await loadCheckpoint(pool, sub.groupId, topic, batch.partition);
        const fresh: { event: EventEnvelope; offset: bigint }[] = [];
        let lastPosition = previous?.position;
        for (const m of batch.messages) {
          const offset = BigInt(m.offset);
          if (previous?.kafkaOffset != null && offset < previous.kafkaOffset) continue;
          const event = await decodeEvent(m.value!, m.headers, registry);
          if (lastPosition && comparePositions(event.position, lastPosition) <= 0) continue;
          lastPosition = event.position;
          fresh.push({ event, offset });
        }
        const lastOffset = BigInt(batch.messages[batch.messages.length - 1]!.offset);
        const offsetOf = new Map(fresh.map((f) => [f.event.id, f.offset]));
        if (fresh.length > 0) {
          try {
            await applyBatch(
              pool,
              sub,
              {
                source: topic,
                partition: batch.partition,
                events: fresh.map((f) => f.event),
                previous,
                // The last event of the batch also covers any duplicates after it.
                checkpointAfter: (e) => ({
                  position: e.position,
                  kafkaOffset: (e === fresh[fresh.length - 1]!.event ? lastOffset : offsetOf.get(e.id)!) + 1n,
                }),
              },
              log,
              retry,
              () => stopping,
            );
          } catch (e) {
            if (e instanceof FencedError) return; // a rebalance moved the partition; the new owner goes on
            throw e;
          }
        }
        resolveOffset(lastOffset.toString());
        await commitOffsetsIfNecessary({
          topics: [{ topic, partitions: [{ partition: batch.partition, offset: (lastOffset + 1n).toString() }] }],
        }).catch(() => undefined);
        await heartbeat();
      },
    });

    return {
      groupId: sub.groupId,
      assigned: () => assigned,
      async stop() {
        if (stopping) return;
        stopping = true;
        await consumer.disconnect();
      },
    };
  }

  return trackingSubscriber('kafka', subscribe);
}
