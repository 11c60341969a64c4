import type { IHeaders } from 'kafkajs';
import { formatPosition, parsePosition, type EventEnvelope } from '../../events/envelope.ts';
import { eventDefinition } from '../../events/registry.ts';

/**
 * Kafka wire format: the value is the Avro encoding of the whole envelope with the payload of
 * `event-version`; the headers name the type and version so a reader picks the writer schema (the
 * checked-in .avsc files) without decoding first.
 */
export const HEADER_TYPE = 'event-type';
export const HEADER_VERSION = 'event-version';
export const HEADER_ID = 'event-id';

export function encodeEvent(e: EventEnvelope): { key: string; value: Buffer; headers: IHeaders } {
  const def = eventDefinition(e.type);
  const value = def.avroType(def.latest).toBuffer({
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

/** Decodes with the writer's schema version and upcasts the payload to the current version. */
export function decodeEvent(value: Buffer, headers: IHeaders | undefined): EventEnvelope {
  const type = header(headers, HEADER_TYPE);
  const version = Number(header(headers, HEADER_VERSION));
  const def = eventDefinition(type);
  if (version > def.latest)
    throw new Error(`${type} v${version} is newer than this reader (v${def.latest}); deploy readers first`);
  const r = def.avroType(version).fromBuffer(value) as Record<string, unknown>;
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
