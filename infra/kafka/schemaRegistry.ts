/**
 * A client for the part of the Confluent Schema Registry REST API the service uses
 * (https://docs.confluent.io/platform/current/schema-registry/develop/api.html):
 * - POST /subjects/{subject}/versions {"schema": "<Avro schema as a JSON string>"} -> {"id": N},
 *   the same id again for the same schema (registering is idempotent);
 * - GET /schemas/ids/{id} -> {"schema": "<JSON string>"}; unknown id: 404 {"error_code": 40403, ...}.
 * Ids are cached for the life of the process: a registry never changes what an id means.
 */
import type { EventDefinition } from '../../events/define.ts';

export interface SchemaRegistrySettings {
  url: string;
  /** `user:password` for HTTP basic auth (SCHEMA_REGISTRY_AUTH), or undefined. */
  auth?: string;
}

export interface SchemaRegistry {
  /** The id of this schema under this subject, registering it the first time. */
  register(subject: string, schema: string): Promise<number>;
  /** The schema (JSON text) an id names. */
  schemaById(id: number): Promise<string>;
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/**
 * TopicRecordNameStrategy: `<topic>-<record full name>`. One topic carries many record types, so
 * the topic name alone (TopicNameStrategy) would force every type under one subject's
 * compatibility checks; the record name alone would share subjects across deployments' topics.
 */
export const subjectFor = (topic: string, def: Pick<EventDefinition, 'type' | 'stream'>): string =>
  `${topic}-audit.events.${def.stream}.${def.type}`;

export function createSchemaRegistry(settings: SchemaRegistrySettings): SchemaRegistry {
  const base = settings.url.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: CONTENT_TYPE };
  if (settings.auth) headers.authorization = `Basic ${Buffer.from(settings.auth).toString('base64')}`;
  const ids = new Map<string, Promise<number>>();
  const schemas = new Map<number, Promise<string>>();

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': CONTENT_TYPE },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`schema registry ${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  // A failed call is dropped from the cache, so the next attempt asks again.
  const cached = <K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> => {
    let p = map.get(key);
    if (!p) {
      p = load();
      map.set(key, p);
      p.catch(() => map.delete(key));
    }
    return p;
  };

  return {
    register: (subject, schema) =>
      cached(ids, `${subject}\n${schema}`, async () => {
        const r = await call('POST', `/subjects/${encodeURIComponent(subject)}/versions`, { schema });
        if (typeof r.id !== 'number') throw new Error(`schema registry: no id in the answer for ${subject}`);
        return r.id;
      }),
    schemaById: (id) =>
      cached(schemas, id, async () => {
        const r = await call('GET', `/schemas/ids/${id}`);
        if (typeof r.schema !== 'string') throw new Error(`schema registry: no schema in the answer for id ${id}`);
        return r.schema;
      }),
  };
}
