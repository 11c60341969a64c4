import type { Batch, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { comparePositions, type EventEnvelope } from '../../events/envelope.ts';
import type { Logger } from '../logger.ts';
import type { Pool } from '../postgres/pool.ts';
import { applyBatch, DEFAULT_RETRY, type RetryPolicy } from './applyBatch.ts';
import { FencedError, loadCheckpoint, type Checkpoint } from './checkpoints.ts';
import { trackingSubscriber, type SubscribeOptions, type Subscriber, type Subscription } from './port.ts';
import { decodeEvent } from '../kafka/codec.ts';
import { ensureEventsTopic, eventsTopic, kafkaGroupId, type KafkaSettings } from '../kafka/client.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../kafka/schemaRegistry.ts';

export interface KafkaSubscriberOptions {
  kafka: Kafka;
  settings: KafkaSettings;
  log: Logger;
  retry?: RetryPolicy;
  sessionTimeoutMs?: number;
}

/** A member's view of its partitions: the checkpoint of each as it last read or wrote it. */
type Known = Map<number, Checkpoint | null>;

interface Member {
  pool: Pool;
  sub: SubscribeOptions;
  topic: string;
  registry: SchemaRegistry | undefined;
  retry: RetryPolicy;
  log: Logger;
  /**
   * Checkpoints this member wrote (compare-and-set, so a stale one can only fence a write), emptied
   * on every rebalance and fence: read from PostgreSQL then.
   */
  known: Known;
  isStopping: () => boolean;
}

/**
 * The batch's events not applied yet: offsets below the checkpoint were, and so were events at or
 * before its log position (a restarted relay published them again).
 */
async function freshEvents(
  m: Member,
  batch: Batch,
  previous: Checkpoint | null,
): Promise<{ event: EventEnvelope; offset: bigint }[]> {
  const fresh: { event: EventEnvelope; offset: bigint }[] = [];
  let lastPosition = previous?.position;
  for (const msg of batch.messages) {
    const offset = BigInt(msg.offset);
    if (previous?.kafkaOffset != null && offset < previous.kafkaOffset) continue;
    const event = await decodeEvent(msg.value!, msg.headers, m.registry);
    if (lastPosition && comparePositions(event.position, lastPosition) <= 0) continue;
    lastPosition = event.position;
    fresh.push({ event, offset });
  }
  return fresh;
}

/** Applies the batch's fresh events with the checkpoint past the whole batch; false: fenced. */
async function applyFresh(m: Member, batch: Batch): Promise<boolean> {
  const { partition } = batch;
  const previous = m.known.has(partition)
    ? m.known.get(partition)!
    : await loadCheckpoint(m.pool, m.sub.groupId, m.topic, partition);
  const fresh = await freshEvents(m, batch, previous);
  if (fresh.length === 0) return true;
  const lastOffset = BigInt(batch.messages[batch.messages.length - 1]!.offset);
  const offsetOf = new Map(fresh.map((f) => [f.event.id, f.offset]));
  try {
    const reached = await applyBatch(
      m.pool,
      m.sub,
      {
        source: m.topic,
        partition,
        events: fresh.map((f) => f.event),
        previous,
        // The last event of the batch also covers any duplicates after it.
        checkpointAfter: (e) => ({
          position: e.position,
          kafkaOffset: (e === fresh[fresh.length - 1]!.event ? lastOffset : offsetOf.get(e.id)!) + 1n,
        }),
      },
      m.log,
      m.retry,
      m.isStopping,
    );
    m.known.set(partition, reached);
    return true;
  } catch (e) {
    m.known.clear();
    if (e instanceof FencedError) return false; // a rebalance moved the partition; the new owner goes on
    throw e;
  }
}

/** kafkajs' eachBatch: apply, then resolve and commit the offsets (for lag tools) and heartbeat. */
const eachBatch =
  (m: Member) =>
  async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }: EachBatchPayload) => {
    if (m.isStopping() || !isRunning() || isStale() || batch.messages.length === 0) return;
    if (!(await applyFresh(m, batch))) return;
    const lastOffset = BigInt(batch.messages[batch.messages.length - 1]!.offset);
    resolveOffset(lastOffset.toString());
    await commitOffsetsIfNecessary({
      topics: [{ topic: m.topic, partitions: [{ partition: batch.partition, offset: (lastOffset + 1n).toString() }] }],
    }).catch(() => undefined);
    await heartbeat();
  };

/** The consumer of one group, tuned for latency. */
const consumerOf = (options: KafkaSubscriberOptions, groupId: string): Consumer =>
  options.kafka.consumer({
    groupId: kafkaGroupId(options.settings.topicPrefix, groupId),
    sessionTimeout: options.sessionTimeoutMs ?? 10_000,
    heartbeatInterval: 1000,
    rebalanceTimeout: 20_000,
    // Latency over batching: the broker answers a fetch as soon as one byte is there (minBytes), so
    // a record reaches the consumer when it is committed, however long an empty fetch may be held.
    // maxWaitTimeInMs only bounds that hold: kafkajs 2 fetches from every broker at once (one
    // fetcher each, consumer/fetchManager.js), so it is no longer the polling interval for data on
    // another broker (kafkajs issues 370 and 1397, fixed there). At 20 ms every idle group sent 50
    // fetches a second, CPU taken from the work on a small machine; 250 ms keeps a consumer's stop and
    // its heartbeat (sent between fetches) prompt.
    minBytes: 1,
    maxWaitTimeInMs: 250,
    allowAutoTopicCreation: false,
  });

/** Follows the group's assignment: seeks each new partition to its stored offset; holds nothing while rebalancing. */
function trackAssignment(consumer: Consumer, m: Member): () => number[] {
  let assigned: number[] = [];
  consumer.on(consumer.events.GROUP_JOIN, async ({ payload }) => {
    m.known.clear();
    assigned = [...(payload.memberAssignment[m.topic] ?? [])].sort((a, b) => a - b);
    // Start where PostgreSQL says this group is; the per-batch check stays the authority.
    for (const partition of assigned) {
      const cp = await loadCheckpoint(m.pool, m.sub.groupId, m.topic, partition).catch(() => null);
      if (cp?.kafkaOffset != null) consumer.seek({ topic: m.topic, partition, offset: cp.kafkaOffset.toString() });
    }
  });
  // Until the next join this member holds nothing: its old partitions may be someone else's.
  consumer.on(consumer.events.REBALANCING, () => {
    m.known.clear();
    assigned = [];
  });
  return () => assigned;
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
    const consumer = consumerOf(options, sub.groupId);
    let stopping = false;
    const m: Member = { pool, sub, topic, registry, retry, log, known: new Map(), isStopping: () => stopping };
    const assigned = trackAssignment(consumer, m);
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      m.known.clear();
      log.error({ err: payload.error, restart: payload.restart }, 'kafka consumer crashed');
    });

    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: eachBatch(m),
    });

    return {
      groupId: sub.groupId,
      assigned,
      async stop() {
        if (stopping) return;
        stopping = true;
        await consumer.disconnect();
      },
    };
  }

  return trackingSubscriber('kafka', subscribe);
}
