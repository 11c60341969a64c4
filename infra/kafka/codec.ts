import avro from 'avsc';
import type { IHeaders } from 'kafkajs';
import { formatPosition, parsePosition, type EventEnvelope } from '../../events/envelope.ts';
import { eventDefinition } from '../../events/registry.ts';
import type { SchemaRegistry } from './schemaRegistry.ts';

/**
 * Kafka wire format: the value is the Avro encoding of the whole envelope with the payload of
 * `event-version`; the headers name the type and version so a reader picks the writer schema (the
 * checked-in .avsc files) without decoding first.
 *
 * With a schema registry (SCHEMA_REGISTRY_URL) the value is in Confluent's wire format instead:
 * byte 0x00, the writer schema's registry id (4 bytes, big-endian), then the same Avro body; the
 * headers stay. An unframed value never starts with 0x00: its first field is the event id, a
 * non-empty string, whose Avro length prefix is not 0. So a reader tells the two apart by byte 0.
 */
export const HEADER_TYPE = 'event-type';
export const HEADER_VERSION = 'event-version';
export const HEADER_ID = 'event-id';

export const MAGIC_BYTE = 0;

/**
 * `framing` is an object, not a bare id, so that `events.map(encodeEvent)` (which passes the index
 * second) does not type-check into framing every message with its index.
 */
export function encodeEvent(
  e: EventEnvelope,
  framing?: { schemaId: number },
): { key: string; value: Buffer; headers: IHeaders } {
  const def = eventDefinition(e.type);
  const body = def.avroType(def.latest).toBuffer({
    id: e.id,
    type: e.type,
    version: def.latest,
    accountId: e.accountId,
    streamId: e.streamId,
    streamVersion: e.streamVersion,
    position: formatPosition(e.position),
    occurredAt: e.occurredAt,
    causationId: e.causationId,
    correlationId: e.correlationId,
    payload: e.payload,
    prevHash: e.prevHash ?? null,
  });
  const value = framing === undefined ? body : Buffer.concat([frame(framing.schemaId), body]);
  return {
    key: e.accountId,
    value,
    headers: { [HEADER_TYPE]: e.type, [HEADER_VERSION]: String(def.latest), [HEADER_ID]: e.id },
  };
}

const header = (headers: IHeaders | undefined, name: string): string => {
  const v = headers?.[name];
  if (v === undefined) throw new Error(`message without ${name} header`);
  return Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
};

/** A message's event type, from its header (no decoding). */
export const eventTypeOf = (headers: IHeaders | undefined): string => header(headers, HEADER_TYPE);

const frame = (schemaId: number): Buffer => {
  const b = Buffer.alloc(5);
  b.writeUInt8(MAGIC_BYTE, 0);
  b.writeUInt32BE(schemaId, 1);
  return b;
};

/**
 * Writer schema (by registry id) resolved to this reader's schema of the same type and version, per
 * registry: an id means one schema within its registry only.
 */
type Resolver = ReturnType<avro.Type['createResolver']>;
const resolvers = new WeakMap<SchemaRegistry, Map<string, Resolver>>();

async function readFramed(
  value: Buffer,
  reader: avro.Type,
  readerKey: string,
  registry: SchemaRegistry | undefined,
): Promise<Record<string, unknown>> {
  if (value.length < 5) throw new Error('framed Kafka value shorter than its 5-byte header');
  const id = value.readUInt32BE(1);
  if (!registry)
    throw new Error(
      `Kafka value is in the schema registry's wire format (schema id ${id}), but SCHEMA_REGISTRY_URL is not set`,
    );
  let cache = resolvers.get(registry);
  if (!cache) resolvers.set(registry, (cache = new Map()));
  const key = `${id} ${readerKey}`;
  let resolver = cache.get(key);
  if (!resolver) {
    const writer = avro.Type.forSchema(JSON.parse(await registry.schemaById(id)) as avro.Schema);
    resolver = reader.createResolver(writer);
    cache.set(key, resolver);
  }
  return reader.fromBuffer(value.subarray(5), resolver) as Record<string, unknown>;
}

/**
 * Decodes with the writer's schema version and upcasts the payload to the current version. A
 * framed value (0x00 + schema id) is read with the writer schema the registry holds for that id.
 */
export async function decodeEvent(
  value: Buffer,
  headers: IHeaders | undefined,
  registry?: SchemaRegistry,
): Promise<EventEnvelope> {
  const type = header(headers, HEADER_TYPE);
  const version = Number(header(headers, HEADER_VERSION));
  const def = eventDefinition(type);
  if (version > def.latest)
    throw new Error(`${type} v${version} is newer than this reader (v${def.latest}); deploy readers first`);
  const reader = def.avroType(version);
  const r =
    value[0] === MAGIC_BYTE
      ? await readFramed(value, reader, `${type}.v${version}`, registry)
      : (reader.fromBuffer(value) as Record<string, unknown>);
  return {
    id: r.id as string,
    type,
    version: def.latest,
    accountId: r.accountId as string,
    streamId: r.streamId as string,
    streamVersion: Number(r.streamVersion),
    position: parsePosition(r.position as string),
    occurredAt: r.occurredAt as string,
    causationId: (r.causationId as string | null) ?? null,
    correlationId: (r.correlationId as string | null) ?? null,
    payload: def.upcast(version, plainPayload(r.payload)),
    prevHash: (r.prevHash as string | null | undefined) ?? null,
  };
}

/** avsc decodes records into class instances; handlers and JSON want plain objects. */
const plainPayload = (p: unknown): unknown => JSON.parse(JSON.stringify(p));
