import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

/**
 * A STAND-IN for a Confluent Schema Registry, not a registry: no real one could be started from
 * the package registries here (Karapace is not on the PyPI mirror; Apicurio's app is a thin Quarkus
 * jar with an unserved dependency; Confluent's is not served). It implements only the documented
 * subset the service and the stock Python client use, with the shapes of Confluent's API reference
 * (https://docs.confluent.io/platform/current/schema-registry/develop/api.html):
 *
 * - POST /subjects/{subject}/versions, body {"schema": "<schema as a JSON string>"} (schemaType
 *   absent = AVRO) -> 200 {"id": N}. The same schema gets the same id, under any subject
 *   (ids are global and registering is idempotent).
 * - GET /schemas/ids/{id} -> 200 {"schema": "<JSON string>"} (Avro omits schemaType);
 *   unknown id -> 404 {"error_code": 40403, "message": "Schema not found"}.
 * - GET /subjects -> 200 ["subject", ...]
 * - anything else -> 404 {"error_code": 404, "message": ...}; bad JSON -> 422 {"error_code": 42201, ...}.
 * Content type: application/vnd.schemaregistry.v1+json. Schemas are compared after canonical
 * re-serialisation (JSON.parse/stringify), a simplification of Avro's parsing canonical form.
 * `down` makes it answer 503, to show that the relay waits for it.
 */
export interface SchemaRegistryStandIn {
  url: string;
  /** Registered subjects and, per subject, the ids registered under it. */
  subjects: Map<string, number[]>;
  requests: string[];
  down: boolean;
}

const TYPE = 'application/vnd.schemaregistry.v1+json';

export async function startSchemaRegistryStandIn(t: Test): Promise<SchemaRegistryStandIn> {
  const byId = new Map<number, string>();
  const idOf = new Map<string, number>();
  const state: SchemaRegistryStandIn = { url: '', subjects: new Map(), requests: [], down: false };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': TYPE });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage): Promise<string> => {
    let s = '';
    for await (const c of req) s += String(c);
    return s;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      state.requests.push(`${req.method} ${url.pathname}`);
      if (state.down) return send(res, 503, { error_code: 50003, message: 'stand-in is down' });
      const register = /^\/subjects\/([^/]+)\/versions$/.exec(url.pathname);
      if (req.method === 'POST' && register) {
        const subject = decodeURIComponent(register[1]!);
        let canonical: string;
        try {
          const body = JSON.parse(await readBody(req)) as { schema?: unknown; schemaType?: unknown };
          if (typeof body.schema !== 'string' || (body.schemaType !== undefined && body.schemaType !== 'AVRO'))
            throw new Error('schema');
          canonical = JSON.stringify(JSON.parse(body.schema));
        } catch {
          return send(res, 422, { error_code: 42201, message: 'Invalid schema' });
        }
        let id = idOf.get(canonical);
        if (id === undefined) {
          id = byId.size + 1;
          idOf.set(canonical, id);
          byId.set(id, canonical);
        }
        const ids = state.subjects.get(subject) ?? [];
        if (!ids.includes(id)) ids.push(id);
        state.subjects.set(subject, ids);
        return send(res, 200, { id });
      }
      const byIdPath = /^\/schemas\/ids\/(\d+)$/.exec(url.pathname);
      if (req.method === 'GET' && byIdPath) {
        const schema = byId.get(Number(byIdPath[1]));
        return schema === undefined
          ? send(res, 404, { error_code: 40403, message: 'Schema not found' })
          : send(res, 200, { schema });
      }
      if (req.method === 'GET' && url.pathname === '/subjects') return send(res, 200, [...state.subjects.keys()]);
      return send(res, 404, { error_code: 404, message: 'HTTP 404 Not Found' });
    })().catch(() => send(res, 500, { error_code: 50001, message: 'stand-in error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return state;
}
