import { randomBytes } from 'node:crypto';
import type { Admin, Batch, Consumer, Kafka } from 'kafkajs';
import { comparePositions, type EventEnvelope, type LogPosition } from '../../events/envelope.ts';
import { eventsTopic, kafkaGroupId, type KafkaSettings } from '../../infra/kafka/client.ts';
import { decodeEvent } from '../../infra/kafka/codec.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../../infra/kafka/schemaRegistry.ts';
import { exportFilter, exportHeader, exportLine, exportProgress, type ExportOptions } from './eventsExport.ts';

type Offsets = Map<number, { low: number; high: number }>;

/**
 * Each partition's low and high offsets, and where reading starts: the beginning, or with
 * `--from TIME` the first message produced at or after it (the end when there is none).
 */
async function partitionRange(admin: Admin, topic: string, o: ExportOptions) {
  const ends: Offsets = new Map(
    (await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, { low: Number(p.low), high: Number(p.high) }]),
  );
  const starts = new Map([...ends].map(([p, { low }]) => [p, low]));
  if (o.from && 'time' in o.from) {
    for (const p of await admin.fetchTopicOffsetsByTimestamp(topic, o.from.time.getTime())) {
      const offset = Number(p.offset);
      starts.set(p.partition, offset < 0 ? ends.get(p.partition)!.high : Math.max(offset, ends.get(p.partition)!.low));
    }
  }
  return { ends, starts };
}

/** Settles when the export is finished or aborted, or fails when the consumer crashes for good. */
function completion(consumer: Consumer, signal?: AbortSignal): { done: Promise<void>; finish: () => void } {
  let finish!: () => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<void>((resolve, reject) => ((finish = resolve), (fail = reject)));
  // Awaited by the caller later; until then a crash must not count as an unhandled rejection.
  done.catch(() => undefined);
  signal?.addEventListener('abort', () => finish(), { once: true });
  // A retriable crash (a fresh broker's coordinator still loading) restarts the consumer by itself.
  consumer.on(consumer.events.CRASH, (e) => {
    if (!e.payload.restart) fail(e.payload.error);
  });
  return { done, finish };
}

/** What a batch is read with: the options, the decoder's registry, the filter, and the last position per partition. */
interface BatchReader {
  o: ExportOptions;
  registry: SchemaRegistry | undefined;
  keep: (e: EventEnvelope) => boolean;
  last: Map<number, LogPosition>;
}

/**
 * One batch as export lines, up to the end offset unless following; a message at or before the
 * partition's last position (a batch the relay published twice) is dropped.
 */
async function batchLines(batch: Batch, end: number, r: BatchReader) {
  let chunk = '';
  let read = 0;
  let lines = 0;
  for (const m of batch.messages) {
    if (!r.o.follow && Number(m.offset) >= end) break;
    read++;
    const e = await decodeEvent(m.value!, m.headers, r.registry);
    const previous = r.last.get(batch.partition);
    if (previous && comparePositions(e.position, previous) <= 0) continue;
    r.last.set(batch.partition, e.position);
    if (!r.keep(e)) continue;
    chunk += exportLine(e, r.o.format);
    lines++;
  }
  return { chunk, read, lines };
}

/**
 * `events tail|export` from the Kafka topic, as a data team's consumer reads it: a throw-away
 * consumer group of its own (never committed, deleted at the end), from the beginning or, with
 * `--from TIME`, from each partition's first message produced at or after that time (an event is
 * produced after it occurred, so none at or after the time is skipped; the filter drops the
 * earlier ones). Each value is decoded like the service's own consumers do (infra/kafka/codec.ts).
 * Events come partition by partition: in order within an account, interleaved across accounts.
 * A batch the relay published twice is dropped by log position, as docs/events.md tells consumers.
 * `export` stops at the end offsets it found on starting; `tail` goes on until stopped.
 */
export async function exportFromKafka(
  kafka: Kafka,
  settings: KafkaSettings,
  o: ExportOptions,
  write: (chunk: string) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<number> {
  const topic = eventsTopic(settings.topicPrefix);
  const groupId = kafkaGroupId(settings.topicPrefix, `admin-export-${randomBytes(6).toString('hex')}`);
  const registry = settings.schemaRegistry ? createSchemaRegistry(settings.schemaRegistry) : undefined;
  const admin = kafka.admin();
  await admin.connect();
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
  let written = 0;
  try {
    const { ends, starts } = await partitionRange(admin, topic, o);
    // Partitions still to read to their end offset (export only).
    const pending = new Set([...ends].filter(([p, { high }]) => starts.get(p)! < high).map(([p]) => p));
    const total = [...ends].reduce((n, [p, { high }]) => n + Math.max(0, high - starts.get(p)!), 0);
    const bar = o.progress && !o.follow ? exportProgress(total) : undefined;
    const reader: BatchReader = { o, registry, keep: exportFilter(o), last: new Map() };
    await write(exportHeader(o.format));
    if (!o.follow && pending.size === 0) {
      bar?.stop();
      return 0;
    }
    const { done, finish } = completion(consumer, signal);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch, heartbeat }) => {
        const end = ends.get(batch.partition)!.high;
        const { chunk, read, lines } = await batchLines(batch, end, reader);
        written += lines;
        if (chunk) await write(chunk);
        bar?.increment(read, { written });
        await heartbeat();
        if (!o.follow && Number(batch.lastOffset()) >= end - 1) {
          pending.delete(batch.partition);
          if (pending.size === 0) finish();
        }
      },
    });
    for (const [partition, offset] of starts) consumer.seek({ topic, partition, offset: String(offset) });
    try {
      await done;
    } finally {
      bar?.stop();
    }
    return written;
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}
