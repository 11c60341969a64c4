import type { Static, TObject } from '@sinclair/typebox';
import avro from 'avsc';
import { typeboxToAvro, type AvroSchema } from './avro.ts';

export const STREAMS = ['account', 'audit', 'bulk', 'share', 'revision', 'webhook', 'test'] as const;
export type StreamName = (typeof STREAMS)[number];

export interface PreviousVersion {
  schema: TObject;
  /** Turns a payload of this version into a payload of the next version. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each upcaster types its own older payload
  upcast: (payload: any) => unknown;
}

/** What the catalogue says of an event type beyond its payload. */
export interface EventTraits {
  /**
   * The event moves an account's credits (the ledger folds it; it joins the account's hash chain,
   * infra/eventStore/hashChain.ts). Declared here, never listed elsewhere.
   */
  movesCredits?: boolean;
  /**
   * The first version whose envelope carries `prevHash` (default 1). The credit events published
   * before the chain existed got a version 2 for it, so that a reader of a v1 message still picks a
   * writer schema that matches its bytes.
   */
  chainedFrom?: number;
}

export interface EventDefinition<T extends string = string, S extends TObject = TObject> {
  type: T;
  stream: StreamName;
  movesCredits: boolean;
  /** Current payload schema. */
  schema: S;
  /** Current version: older versions are 1..latest-1. */
  latest: number;
  schemaOf(version: number): TObject;
  /** The wire (Avro) schema of the whole envelope with this version's payload. */
  avroSchema(version: number): AvroSchema;
  avroType(version: number): avro.Type;
  /** Brings a payload written at `version` up to the current version. */
  upcast(version: number, payload: unknown): Static<S>;
  /** Builds the domain event {type, data}. */
  (data: Static<S>): { type: T; data: Static<S> };
}

/**
 * Any event's definition, for the lists that hold them all (registry, catalogue, docs, .avsc files).
 * A definition is invariant in its schema (it both builds and reads payloads), so no narrower type
 * holds every one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyEventDefinition = EventDefinition<any, any>;

/**
 * Declares an event once: the TypeBox schema gives the TypeScript type and, through
 * events/avro.ts, the Avro wire schema. `previous` lists older versions oldest first, each with the
 * upcaster to the version after it.
 */
export function defineEvent<T extends string, S extends TObject>(
  type: T,
  stream: StreamName,
  schema: S,
  previous: PreviousVersion[] = [],
  traits: EventTraits = {},
): EventDefinition<T, S> {
  const movesCredits = traits.movesCredits ?? false;
  const chainedFrom = traits.chainedFrom ?? 1;
  const latest = previous.length + 1;
  const schemaOf = (version: number): TObject => {
    if (version === latest) return schema;
    const p = previous[version - 1];
    if (!p) throw new Error(`${type} has no version ${version}`);
    return p.schema;
  };
  const avroTypes = new Map<number, avro.Type>();
  const avroSchema = (version: number): AvroSchema => ({
    type: 'record',
    // Names do not carry the version: Avro resolves a reader and a writer schema by name.
    name: type,
    namespace: `audit.events.${stream}`,
    doc: `${type} v${version}. Kafka headers: event-type=${type}, event-version=${version}.`,
    fields: [
      { name: 'id', type: 'string' },
      { name: 'type', type: 'string' },
      { name: 'version', type: 'int' },
      { name: 'accountId', type: 'string' },
      { name: 'streamId', type: 'string' },
      { name: 'streamVersion', type: 'long' },
      { name: 'position', type: 'string' },
      { name: 'occurredAt', type: 'string' },
      { name: 'causationId', type: ['null', 'string'], default: null },
      { name: 'correlationId', type: ['null', 'string'], default: null },
      { name: 'payload', type: typeboxToAvro(schemaOf(version), `${type}Payload`) },
      // The hash chain link: nullable with a default, so old and new readers both read each other.
      ...(movesCredits && version >= chainedFrom
        ? [{ name: 'prevHash', type: ['null', 'string'], default: null }]
        : []),
    ],
  });
  const avroType = (version: number): avro.Type => {
    let t = avroTypes.get(version);
    if (!t) {
      t = avro.Type.forSchema(avroSchema(version) as avro.Schema);
      avroTypes.set(version, t);
    }
    return t;
  };
  const upcast = (version: number, payload: unknown): Static<S> => {
    let p = payload;
    for (let v = version; v < latest; v++) p = previous[v - 1]!.upcast(p);
    return p as Static<S>;
  };
  const create = (data: Static<S>) => ({ type, data });
  return Object.assign(create, {
    type,
    stream,
    movesCredits,
    schema,
    latest,
    schemaOf,
    avroSchema,
    avroType,
    upcast,
  }) as unknown as EventDefinition<T, S>;
}

export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: Static<S> } : never;
