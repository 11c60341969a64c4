import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { comparePositions, formatPosition, START, type EventEnvelope } from '../../../events/envelope.ts';
import { avscFiles } from '../../../events/avscFiles.ts';
import { eventDefinition } from '../../../events/registry.ts';
import { readLog } from '../../../infra/eventStore/readLog.ts';
import { eventsTopic, type KafkaSettings } from '../../../infra/kafka/client.ts';
import { decodeEvent, encodeEvent } from '../../../infra/kafka/codec.ts';
import { createSchemaRegistry, subjectFor } from '../../../infra/kafka/schemaRegistry.ts';
import { repoRoot } from '../../../infra/local/kafkaJars.ts';
import { pythonTools } from '../../../infra/local/pythonTools.ts';
import { createLogger } from '../../../infra/logger.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { loadCheckpoint } from '../../../infra/subscriptions/checkpoints.ts';
import { RELAY_GROUP, startRelay } from '../../../services/relay/relay.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { appendRandomAccounts } from '../../helpers/randomLedger.ts';
import { startSchemaRegistryStandIn, type SchemaRegistryStandIn } from '../../helpers/schemaRegistryServer.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';
import { readTopic } from '../../helpers/topicReader.ts';
import { assertDecodedAsStored } from './fixtures/stockDecoded.ts';

/**
 * SCHEMA_REGISTRY_URL against a STAND-IN registry (test/helpers/schemaRegistryServer.ts): a local
 * HTTP server implementing the documented subset of Confluent's Schema Registry API, because no
 * real registry could be started from the package registries here (see the README). What is real:
 * PostgreSQL, Kafka, the relay, the project's Kafka subscriber, and the stock Python client
 * (confluent-kafka's SchemaRegistryClient + AvroDeserializer), which talks to the stand-in over HTTP.
 */
const log = createLogger('test-relay-registry');

async function allStored(pool: Pool): Promise<EventEnvelope[]> {
  const total = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  let stored: EventEnvelope[] = [];
  // The log shows a transaction once every older one has ended (readLog): wait for all of them.
  await eventually(
    async () => (stored = await readLog(pool, { after: START, limit: 100_000 })).length === total,
    30_000,
    'the log to show every event',
  );
  return stored;
}

async function framedSetup(
  t: Test,
  partitions = 2,
): Promise<{
  pool: Pool;
  registry: SchemaRegistryStandIn;
  settings: KafkaSettings;
  kafka: Awaited<ReturnType<typeof testKafka>>['kafka'];
}> {
  const { pool } = await testDatabase(t);
  const registry = await startSchemaRegistryStandIn(t);
  const { kafka, settings: plain } = await testKafka(t, partitions);
  const settings: KafkaSettings = { ...plain, schemaRegistry: { url: registry.url } };
  return { pool, registry, settings, kafka };
}

t.test(
  "with a registry, every value is 0x00 + the registered id of its type's published schema + the Avro body; the project decodes it back",
  async (t) => {
    const { pool, registry, settings, kafka } = await framedSetup(t);
    const relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
    const reader = await readTopic(kafka, settings);
    t.teardown(async () => {
      await reader.stop();
      await relay.stop();
    });
    await appendRandomAccounts(pool, { accounts: 6, steps: 10, seed: 11, prefix: 'reg' });
    const stored = await allStored(pool);
    await eventually(async () => reader.messages.length >= stored.length, 60_000, 'every event on the topic');

    const topic = eventsTopic(settings.topicPrefix);
    const avsc = new Map(avscFiles().map((f) => [f.path, f.content]));
    const types = new Set(stored.map((e) => e.type));
    t.ok(types.size >= 4, `${types.size} event types`);
    t.same(
      [...registry.subjects.keys()].sort(),
      [...types].map((ty) => subjectFor(topic, eventDefinition(ty))).sort(),
      'one subject per record type: <topic>-<record full name>',
    );
    const client = createSchemaRegistry({ url: registry.url });
    for (const ty of types) {
      const def = eventDefinition(ty);
      const subject = `${topic}-audit.events.${def.stream}.${ty}`;
      const ids = registry.subjects.get(subject);
      t.equal(ids?.length, 1, `${subject} registered once`);
      const file = [...avsc.keys()].find((p) => p.endsWith(join(def.stream, 'avro', `${ty}.v${def.latest}.avsc`)))!;
      t.same(
        JSON.parse(await client.schemaById(ids![0]!)),
        JSON.parse(readFileSync(file, 'utf8')),
        `${ty}: the registered schema is the published ${ty}.v${def.latest}.avsc`,
      );
    }
    const posts = registry.requests.filter((r) => r.startsWith('POST')).length;
    t.equal(posts, types.size, 'ids are cached: one registration per type, not per message');

    for (const m of reader.messages) {
      const def = eventDefinition(m.headers['event-type']!);
      if (m.value[0] !== 0 || m.value.readUInt32BE(1) !== registry.subjects.get(subjectFor(topic, def))![0]) {
        t.fail(`${m.headers['event-type']} at ${m.partition}/${m.offset} is not framed with its type's id`);
      }
    }
    const byId = new Map(stored.map((e) => [e.id, e]));
    const decoded = await Promise.all(reader.messages.map((m) => decodeEvent(m.value, m.headers, client)));
    t.same(decoded.map((e) => e.id).sort(), [...byId.keys()].sort(), 'every event, once');
    t.ok(
      decoded.every((e) => isDeepStrictEqual(e, byId.get(e.id))),
      'each decodes to the stored event',
    );
    t.ok(
      reader.messages.every((m, i) => m.value.subarray(5).equals(encodeEvent(byId.get(decoded[i]!.id)!).value)),
      'the body after the 5 bytes is exactly the unframed value',
    );
  },
);

t.test(
  'the project reads both framings; a framed value with an unknown id or without a registry is a clear error',
  async (t) => {
    const registry = await startSchemaRegistryStandIn(t);
    const client = createSchemaRegistry({ url: registry.url });
    const { pool } = await testDatabase(t);
    await appendRandomAccounts(pool, { accounts: 1, steps: 3, seed: 3, prefix: 'mix' });
    const [e] = await allStored(pool);
    const def = eventDefinition(e!.type);
    const id = await client.register(subjectFor('x.events', def), JSON.stringify(def.avroSchema(def.latest)));
    const plain = encodeEvent(e!);
    const framed = encodeEvent(e!, { schemaId: id });
    t.same(await decodeEvent(plain.value, plain.headers, client), e, 'unframed, with a registry configured');
    t.same(await decodeEvent(plain.value, plain.headers), e, 'unframed, without');
    t.same(await decodeEvent(framed.value, framed.headers, client), e, 'framed');
    const unknown = Buffer.from(framed.value);
    unknown.writeUInt32BE(9999, 1);
    await t.rejects(
      decodeEvent(unknown, framed.headers, createSchemaRegistry({ url: registry.url })),
      /HTTP 404 .*40403/,
      "unknown id: the registry's 404 in the error",
    );
    await t.rejects(decodeEvent(framed.value, framed.headers), /SCHEMA_REGISTRY_URL is not set/);
  },
);

t.test(
  'a registry that is down: the relay publishes nothing (no unframed message, no skipped event), logs, and catches up when it is back',
  async (t) => {
    const { pool, registry, settings, kafka } = await framedSetup(t);
    registry.down = true;
    const lines: string[] = [];
    const relayLog = createLogger('test-relay-registry-down');
    const error = relayLog.error.bind(relayLog);
    relayLog.error = ((obj: unknown, msg?: string) => {
      lines.push(String(msg));
      return error(obj as object, msg);
    }) as typeof relayLog.error;
    const relay = await startRelay({ pool, kafka, settings, log: relayLog, pollMs: 10 });
    const reader = await readTopic(kafka, settings);
    t.teardown(async () => {
      await reader.stop();
      await relay.stop();
    });
    await appendRandomAccounts(pool, { accounts: 3, steps: 6, seed: 5, prefix: 'down' });
    const stored = await allStored(pool);
    await eventually(async () => registry.requests.length >= 3, 30_000, 'the relay to try the registry a few times');
    t.ok(
      lines.some((l) => /relay step failed/.test(l)),
      'the failure is logged',
    );
    t.equal(reader.messages.length, 0, 'nothing published while the registry is down');

    registry.down = false;
    await eventually(
      async () => reader.messages.length >= stored.length,
      60_000,
      'every event once the registry is back',
    );
    t.ok(
      reader.messages.every((m) => m.value[0] === 0),
      'every message framed',
    );
    t.same(new Set(reader.messages.map((m) => m.headers['event-id'])).size, stored.length, 'none skipped');
  },
);

t.test(
  "the stock Python consumer decodes every event through the registry; the project's Kafka subscriber applies a framed topic",
  async (t) => {
    const bin = await pythonTools();
    const { pool, registry, settings, kafka } = await framedSetup(t);
    const relay = await startRelay({ pool, kafka, settings, log, pollMs: 10 });
    t.teardown(() => relay.stop());
    await appendRandomAccounts(pool, { accounts: 8, steps: 10, seed: 9, prefix: 'pyreg' });
    const stored = await allStored(pool);
    const last = stored[stored.length - 1]!.position;
    await eventually(
      async () => {
        const cp = await loadCheckpoint(pool, RELAY_GROUP, eventsTopic(settings.topicPrefix), 0);
        return cp !== null && comparePositions(cp.position, last) >= 0;
      },
      60_000,
      'the relay to publish everything',
    );

    const out = await promisify(execFile)(
      join(bin, 'python'),
      [
        join(repoRoot, 'test', 'python', 'consume_events_registry.py'),
        settings.brokers.join(','),
        eventsTopic(settings.topicPrefix),
        registry.url,
        String(stored.length),
        '30',
      ],
      { maxBuffer: 64 << 20 },
    );
    const decoded = out.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    t.equal(decoded.length, stored.length, 'every event read and decoded by the stock deserializer');
    t.ok(
      registry.requests.some((r) => r.startsWith('GET /schemas/ids/')),
      'it fetched the writer schemas by id from the registry',
    );
    assertDecodedAsStored(t, stored, decoded, 'each event decoded by the stock consumer equals the stored one');

    const subscriber = makeSubscriber('kafka', pool, settings);
    t.teardown(() => subscriber.close());
    await pool.query('CREATE TABLE applied (event_id text PRIMARY KEY, event jsonb NOT NULL)');
    await subscriber.subscribe({
      groupId: 'registry-reader',
      handle: async (events, tx) => {
        for (const e of events)
          await tx.query('INSERT INTO applied VALUES ($1, $2)', [
            e.id,
            JSON.stringify({ ...e, position: formatPosition(e.position) }),
          ]);
      },
    });
    const count = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM applied')).rows[0]!.n;
    await eventually(
      async () => (await count()) === stored.length,
      60_000,
      'the subscriber to apply every framed event',
    );
    const rows = new Map(
      (await pool.query<{ event_id: string; event: Record<string, unknown> }>('SELECT * FROM applied')).rows.map(
        (r) => [r.event_id, r.event],
      ),
    );
    t.ok(
      stored.every((e) =>
        isDeepStrictEqual(rows.get(e.id), JSON.parse(JSON.stringify({ ...e, position: formatPosition(e.position) }))),
      ),
      "the project's Kafka subscriber applied every event of the framed topic, each as stored, once",
    );
  },
);
