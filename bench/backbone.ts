/**
 * The event backbone's throughput: appends, the relay to Kafka, and projections through each
 * subscription adapter, each beside a ceiling measured in the same run on the same servers (raw
 * batched INSERTs into PostgreSQL; kafkajs sending raw batches with no envelope).
 *
 * PostgreSQL runs with durability ON here (unlike the test server), so the figures are honest.
 */
import { randomBytes } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { registerTestEvents } from '../test/helpers/testEvents.ts';
import { TestHappened } from '../events/test/index.ts';
import { appendToStream } from '../infra/eventStore/eventStore.ts';
import { createKafka, ensureEventsTopic, ensureTopic, eventsTopic, type KafkaSettings } from '../infra/kafka/client.ts';
import { encodeEvent } from '../infra/kafka/codec.ts';
import { createKafkaSubscriber } from '../infra/subscriptions/kafkaSubscriber.ts';
import { createLogger } from '../infra/logger.ts';
import { withTransaction, type Pool } from '../infra/postgres/pool.ts';
import { loadCheckpoint } from '../infra/subscriptions/checkpoints.ts';
import { createStoreSubscriber } from '../infra/subscriptions/storeSubscriber.ts';
import type { Subscriber } from '../infra/subscriptions/port.ts';
import { startProjections } from '../projections/runner.ts';
import { RELAY_GROUP, startRelay } from '../services/relay/relay.ts';
import type { Projection } from '../projections/projection.ts';
import type { BenchRow } from './report.ts';
import { openBenchStack } from './stack.ts';
import { sleep } from '../core/sleep.ts';

const log = createLogger('bench', 'warn');
const WRITERS = 8;
const BATCH = 100;
const BATCHES = 200; // 20,000 events
const SINGLES = 2000;
const NOTE = 'x'.repeat(200); // a payload of a realistic size

const perSecond = (count: number, ms: number) => (count / ms) * 1000;

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Runs `jobs` with `WRITERS` in parallel, each writer taking its own jobs in order. */
const byWriters = async (total: number, job: (writer: number, i: number) => Promise<void>): Promise<void> => {
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = w; i < total; i += WRITERS) await job(w, Math.floor(i / WRITERS));
    }),
  );
};

async function appendBench(pool: Pool): Promise<BenchRow[]> {
  await pool.query(`CREATE TABLE raw_events (id text PRIMARY KEY, account_id text, payload jsonb)`);
  const rawBatch = await timed(() =>
    byWriters(BATCHES, async (w, i) => {
      const values: unknown[] = [];
      const rows: string[] = [];
      for (let k = 0; k < BATCH; k++) {
        rows.push(`($${values.length + 1}, $${values.length + 2}, $${values.length + 3})`);
        values.push(randomBytes(16).toString('hex'), `acc_${w}`, JSON.stringify({ n: i * BATCH + k, note: NOTE }));
      }
      await withTransaction(pool, (tx) => tx.query(`INSERT INTO raw_events VALUES ${rows.join(',')}`, values));
    }),
  );
  const appendBatch = await timed(() =>
    byWriters(BATCHES, async (w, i) => {
      await withTransaction(pool, (tx) =>
        appendToStream(tx, {
          streamId: `bench-${w}`,
          accountId: `acc_${w}`,
          expectedVersion: i * BATCH,
          now: new Date(),
          events: Array.from({ length: BATCH }, (_, k) => TestHappened({ n: i * BATCH + k + 1, note: NOTE })),
        }),
      );
    }),
  );
  const rawSingle = await timed(() =>
    byWriters(SINGLES, async (w) => {
      await withTransaction(pool, (tx) =>
        tx.query('INSERT INTO raw_events VALUES ($1, $2, $3)', [
          randomBytes(16).toString('hex'),
          `acc_${w}`,
          JSON.stringify({ n: 1, note: NOTE }),
        ]),
      );
    }),
  );
  const appendSingle = await timed(() =>
    byWriters(SINGLES, async (w, i) => {
      await withTransaction(pool, (tx) =>
        appendToStream(tx, {
          streamId: `single-${w}`,
          accountId: `acc_${w}`,
          expectedVersion: i,
          now: new Date(),
          events: [TestHappened({ n: i + 1, note: NOTE })],
        }),
      );
    }),
  );
  const total = BATCH * BATCHES;
  return [
    {
      name: `append, ${BATCH} events per transaction, ${WRITERS} writers`,
      value: perSecond(total, appendBatch),
      unit: 'events/s',
      ceiling: { name: 'raw batched INSERT', value: perSecond(total, rawBatch) },
    },
    {
      name: `append, 1 event per transaction, ${WRITERS} writers`,
      value: perSecond(SINGLES, appendSingle),
      unit: 'events/s',
      ceiling: { name: 'raw single-row INSERT', value: perSecond(SINGLES, rawSingle) },
    },
  ];
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (await check()) return;
    await sleep(20);
  }
}

async function relayBench(pool: Pool, settings: KafkaSettings, total: number): Promise<BenchRow> {
  const kafka = createKafka(settings, log);
  // Ceiling: kafkajs sending raw batches of the same size and count, no envelope, no store.
  const rawTopic = `${settings.topicPrefix}.raw`;
  await ensureTopic(kafka, rawTopic, settings.partitions);
  const sample = encodeEvent({
    id: randomBytes(16).toString('hex'),
    type: 'TestHappened',
    version: 2,
    accountId: 'acc_0',
    streamId: 's',
    streamVersion: 1,
    position: { txId: 1n, seq: 1n },
    occurredAt: new Date().toISOString(),
    causationId: null,
    correlationId: null,
    payload: { n: 1, note: NOTE },
  });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: Number.MAX_SAFE_INTEGER },
  });
  await producer.connect();
  const raw = await timed(async () => {
    for (let sent = 0; sent < total; sent += 1000) {
      await producer.send({
        topic: rawTopic,
        acks: -1,
        messages: Array.from({ length: Math.min(1000, total - sent) }, (_, k) => ({
          key: `acc_${k % WRITERS}`,
          value: sample.value,
        })),
      });
    }
  });
  await producer.disconnect();

  const last = await pool.query<{ tx: string; seq: string }>(
    'SELECT e.tx_id::text AS tx, e.seq FROM events e ORDER BY e.tx_id DESC, e.seq DESC LIMIT 1',
  );
  const end = { tx: BigInt(last.rows[0]!.tx), seq: BigInt(last.rows[0]!.seq) };
  let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
  const relayed = await timed(async () => {
    relay = await startRelay({ pool, kafka, settings, log, pollMs: 5 });
    await waitFor(async () => {
      const cp = await loadCheckpoint(pool, RELAY_GROUP, eventsTopic(settings.topicPrefix), 0);
      return cp !== null && cp.position.txId === end.tx && cp.position.seq === end.seq;
    });
  });
  await relay!.stop();
  return {
    name: 'relay, store to Kafka (idempotent, acks=all)',
    value: perSecond(total, relayed),
    unit: 'events/s',
    ceiling: { name: 'kafkajs raw batches', value: perSecond(total, raw) },
  };
}

/** Writes each batch with one multi-row INSERT: the same work as the ceiling, so the ratio is the adapter's cost. */
const batchedProjection = (name: string): Projection => ({
  name,
  version: 1,
  tables: [`${name}_rows`],
  createSql: `CREATE TABLE IF NOT EXISTS ${name}_rows (event_id text PRIMARY KEY, account_id text, payload jsonb)`,
  canHandle: ['TestHappened'],
  async handle(events, tx) {
    const values: unknown[] = [];
    const rows = events.map((e) => {
      values.push(e.id, e.accountId, JSON.stringify(e.payload));
      return `($${values.length - 2}, $${values.length - 1}, $${values.length})`;
    });
    await tx.query(`INSERT INTO ${name}_rows VALUES ${rows.join(',')}`, values);
  },
});

async function projectionBench(
  pool: Pool,
  subscriber: Subscriber,
  label: string,
  total: number,
  ceiling: number,
): Promise<BenchRow> {
  const projection = batchedProjection(`bench_${label.toLowerCase()}`);
  const ms = await timed(async () => {
    await startProjections(pool, subscriber, [projection]);
    await waitFor(
      async () =>
        Number((await pool.query(`SELECT count(*)::int AS c FROM ${projection.tables[0]}`)).rows[0].c) >= total,
    );
  });
  await subscriber.close();
  return {
    name: `projected through the ${label} adapter (batched writes)`,
    value: perSecond(total, ms),
    unit: 'events/s',
    ceiling: { name: 'raw batched INSERT', value: ceiling },
  };
}

export async function benchBackbone(): Promise<BenchRow[]> {
  registerTestEvents();
  const stack = await openBenchStack(log, { kafka: true });
  try {
    const { pool } = await stack.database();
    const rows = await appendBench(pool);
    const total = Number((await pool.query('SELECT count(*)::int AS c FROM events')).rows[0].c);
    const settings: KafkaSettings = {
      brokers: stack.brokers!.split(','),
      topicPrefix: `bench${randomBytes(3).toString('hex')}`,
      partitions: 8,
    };
    await ensureEventsTopic(createKafka(settings, log), settings);
    rows.push(await relayBench(pool, settings, total));
    const ceiling = rows[0]!.ceiling!.value;
    rows.push(await projectionBench(pool, createStoreSubscriber(pool, { log, pollMs: 5 }), 'store', total, ceiling));
    rows.push(
      await projectionBench(
        pool,
        createKafkaSubscriber(pool, { kafka: createKafka(settings, log), settings, log }),
        'Kafka',
        total,
        ceiling,
      ),
    );
    return rows;
  } finally {
    await stack.stop();
  }
}
