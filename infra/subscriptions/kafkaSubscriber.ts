import type { Batch, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { comparePositions, type EventEnvelope } from '../../events/envelope.ts';
import type { Logger } from '../logger.ts';
import type { Pool } from '../postgres/pool.ts';
import { applyBatch, DEFAULT_RETRY, type RetryPolicy } from './applyBatch.ts';
import { FencedError, loadCheckpoint, type Checkpoint } from './checkpoints.ts';
import { trackingSubscriber, type SubscribeOptions, type Subscriber, type Subscription } from './port.ts';
import { decodeEvent, eventTypeOf } from '../kafka/codec.ts';
import { ensureEventsTopic, eventsTopic, kafkaGroupId, type KafkaSettings } from '../kafka/client.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../kafka/schemaRegistry.ts';
import { memberProgress, type MemberProgress } from './kafkaProgress.ts';

export interface KafkaSubscriberOptions {
  kafka: Kafka;
  settings: KafkaSettings;
  log: Logger;
  retry?: RetryPolicy;
  sessionTimeoutMs?: number;
  /** How often a member writes the checkpoint past batches it had nothing to apply of (kafkaProgress.ts). */
  flushMs?: number;
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
  /** What the member read past without writing it yet. */
  progress: MemberProgress;
  isStopping: () => boolean;
}

/** Forgets what the member knew of its partitions: read from PostgreSQL again. */
const forget = (m: Member): void => {
  m.known.clear();
  m.progress.forget();
};

/** The stored checkpoint, or where a skipped batch has moved it to before it is written. */
async function checkpointOf(m: Member, partition: number): Promise<Checkpoint | null> {
  const pending = m.progress.pendingOf(partition);
  if (pending) return pending;
  if (!m.known.has(partition)) m.known.set(partition, await loadCheckpoint(m.pool, m.sub.groupId, m.topic, partition));
  return m.known.get(partition)!;
}

/** Whether the batch holds an event the group handles (read from the headers, nothing decoded). */
const handlesAny = (m: Member, batch: Batch): boolean =>
  !m.sub.types || batch.messages.some((msg) => m.sub.types!.includes(eventTypeOf(msg.headers)));

/**
 * A batch with none of the group's types: no transaction, its checkpoint is written later
 * (kafkaProgress.ts). Its position never goes back: a copy the relay published again may be older.
 */
async function readPast(m: Member, batch: Batch): Promise<void> {
  const previous = await checkpointOf(m, batch.partition);
  const lastMessage = batch.messages[batch.messages.length - 1]!;
  const lastOffset = BigInt(lastMessage.offset);
  if (previous?.kafkaOffset != null && lastOffset < previous.kafkaOffset) return;
  const last = await decodeEvent(lastMessage.value!, lastMessage.headers, m.registry);
  const position =
    previous && comparePositions(last.position, previous.position) <= 0 ? previous.position : last.position;
  m.progress.readPast(batch.partition, { position, kafkaOffset: lastOffset + 1n });
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
    m.progress.written(partition);
    return true;
  } catch (e) {
    forget(m);
    if (e instanceof FencedError) return false; // a rebalance moved the partition; the new owner goes on
    throw e;
  }
}

/** kafkajs' eachBatch: apply (or read past), resolve, and heartbeat; the offsets reach Kafka later. */
const eachBatch =
  (m: Member) =>
  async ({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload) => {
    if (m.isStopping() || !isRunning() || isStale() || batch.messages.length === 0) return;
    if (handlesAny(m, batch)) {
      if (!(await applyFresh(m, batch))) return;
    } else await readPast(m, batch);
    const lastOffset = BigInt(batch.messages[batch.messages.length - 1]!.offset);
    resolveOffset(lastOffset.toString());
    m.progress.consumed(batch.partition, lastOffset + 1n);
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
    forget(m);
    assigned = [...(payload.memberAssignment[m.topic] ?? [])].sort((a, b) => a - b);
    // Start where PostgreSQL says this group is; the per-batch check stays the authority.
    for (const partition of assigned) {
      const cp = await loadCheckpoint(m.pool, m.sub.groupId, m.topic, partition).catch(() => null);
      if (cp?.kafkaOffset != null) consumer.seek({ topic: m.topic, partition, offset: cp.kafkaOffset.toString() });
    }
  });
  // Until the next join this member holds nothing: its old partitions may be someone else's.
  consumer.on(consumer.events.REBALANCING, () => {
    forget(m);
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
    // The member's batches and its progress writes, one at a time.
    let chain: Promise<unknown> = Promise.resolve();
    const serial = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = chain.then(fn, fn);
      chain = run.catch(() => undefined);
      return run;
    };
    const known: Known = new Map();
    let assigned: () => number[] = () => [];
    const progress = memberProgress({
      pool,
      consumer,
      groupId: sub.groupId,
      topic,
      log,
      known,
      assigned: () => assigned(),
      serial,
      flushMs: options.flushMs,
    });
    const m: Member = { pool, sub, topic, registry, retry, log, known, progress, isStopping: () => stopping };
    assigned = trackAssignment(consumer, m);
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      forget(m);
      log.error({ err: payload.error, restart: payload.restart }, 'kafka consumer crashed');
    });

    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: (payload) => serial(() => eachBatch(m)(payload)),
    });

    return {
      groupId: sub.groupId,
      assigned,
      async stop() {
        if (stopping) return;
        stopping = true;
        await progress.stop().catch((e: unknown) => log.warn({ err: e }, 'progress not written at stop'));
        await consumer.disconnect();
      },
    };
  }

  return trackingSubscriber('kafka', subscribe);
}
