import t, { type Test } from 'tap';
import { createAccount } from '../../../services/admin/operations.ts';
import { apiFixture, bearer } from './fixtures/app.ts';

/** Spec 4 common behaviour and spec 7's one error shape, for every way a request can fail. */
t.test('common behaviour and the one error path', async (t) => {
  const f = await apiFixture(t);
  const { apiKey } = await createAccount(f.pool, { email: 'common@example.com' });
  const auth = bearer(apiKey);

  const errorShape = (
    t: Test,
    res: { statusCode: number; headers: Record<string, unknown>; json(): any },
    status: number,
    code: string,
    message?: string | RegExp,
  ) => {
    t.equal(res.statusCode, status, `status ${status}`);
    const body = res.json();
    t.equal(body.error.code, code, `code ${code}`);
    t.type(body.error.message, 'string');
    if (message instanceof RegExp) t.match(body.error.message, message);
    else if (message) t.equal(body.error.message, message);
    t.equal(body.error.requestId, res.headers['x-request-id'], 'requestId is the X-Request-Id');
    t.equal(body.apiVersion, 'v1.4');
  };

  t.test('X-Request-Id is echoed when supplied and generated otherwise, on success and error', async (t) => {
    const echoed = await f.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { ...auth, 'x-request-id': 'my-trace-42' },
    });
    t.equal(echoed.statusCode, 200);
    t.equal(echoed.headers['x-request-id'], 'my-trace-42');
    const generated = await f.app.inject({ method: 'GET', url: '/api/v1/me', headers: auth });
    t.match(generated.headers['x-request-id'], /^req_[0-9a-f-]{36}$/);
    const failed = await f.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-request-id': 'err-7' } });
    t.equal(failed.headers['x-request-id'], 'err-7');
    t.equal(failed.json().error.requestId, 'err-7');
  });

  t.test('unknown route: 404 not_found', async (t) => {
    const res = await f.app.inject({ method: 'GET', url: '/api/v1/nope?x=1', headers: auth });
    errorShape(t, res, 404, 'not_found', 'Route GET /api/v1/nope not found');
    const wrongMethod = await f.app.inject({ method: 'DELETE', url: '/api/v1/me', headers: auth });
    errorShape(
      t,
      wrongMethod,
      405,
      'method_not_allowed',
      'Method DELETE is not allowed on /api/v1/me; allowed: GET, HEAD',
    );
    t.equal(wrongMethod.headers.allow, 'GET, HEAD');
    // /audits/bulk also fits /audits/:id, but the router gives it to the fixed segment: only bulk's methods.
    const bulk = await f.app.inject({ method: 'OPTIONS', url: '/api/v1/audits/bulk', headers: auth });
    errorShape(
      t,
      bulk,
      405,
      'method_not_allowed',
      'Method OPTIONS is not allowed on /api/v1/audits/bulk; allowed: POST',
    );
    t.equal(bulk.headers.allow, 'POST', 'no GET from the /audits/:id pattern');
    const audit = await f.app.inject({ method: 'PUT', url: '/api/v1/audits/aud_1', headers: auth });
    t.match(audit.headers.allow, /^GET, HEAD/, 'an audit id still gets the audit methods');
  });

  t.test('malformed JSON: 400 invalid_request', async (t) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    errorShape(t, res, 400, 'invalid_request', 'Body is not valid JSON');
  });

  t.test('empty JSON body: 400 invalid_request', async (t) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '',
    });
    errorShape(t, res, 400, 'invalid_request');
  });

  t.test('a body failing its schema: 400 invalid_request naming the field; no type coercion of bodies', async (t) => {
    const long = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: auth,
      payload: { name: 'x'.repeat(11) },
    });
    errorShape(t, long, 400, 'invalid_request', /name/);
    const stringBool = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: auth,
      payload: { name: 'x', share: 'true' },
    });
    errorShape(t, stringBool, 400, 'invalid_request', /share/);
    const fine = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: auth,
      payload: { name: 'x', share: true },
    });
    t.equal(fine.statusCode, 200);
  });

  t.test('wrong content type: 415 unsupported_media_type', async (t) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { ...auth, 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    errorShape(t, res, 415, 'unsupported_media_type', 'Content-Type must be application/json');
  });

  t.test('oversized body: 413 payload_too_large', async (t) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    errorShape(t, res, 413, 'payload_too_large', 'Request body is too large');
  });

  t.test('an unexpected error is masked: 500 internal_error, nothing of the cause in the body', async (t) => {
    const res = await f.app.inject({ method: 'GET', url: '/api/v1/test/boom', headers: auth });
    errorShape(t, res, 500, 'internal_error', 'Internal error; quote the requestId when reporting it');
    t.notMatch(res.body, /hunter2|postgres|stack|at /, 'no detail of the failure leaks');
  });

  t.test('an unauthenticated request is refused before its body is read', async (t) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{bad json',
    });
    errorShape(t, res, 401, 'invalid_api_key');
  });

  t.test('apiVersion v1.4 at the top level of every response', async (t) => {
    for (const url of ['/api/v1/me', '/api/v1/credits/usage']) {
      const res = await f.app.inject({ method: 'GET', url, headers: auth });
      t.equal(res.statusCode, 200, url);
      t.equal(res.json().apiVersion, 'v1.4', url);
    }
  });

  t.test('health endpoints answer without a key and without apiVersion', async (t) => {
    const res = await f.app.inject({ method: 'GET', url: '/healthz' });
    t.same(res.json(), { status: 'ok' });
  });

  t.test('a /api/v1 route that declares no access refuses to register', async (t) => {
    const { buildApp } = await import('../../../services/api/app.ts');
    const { createLogger } = await import('../../../infra/logger.ts');
    const { DEFAULT_LIMITS } = await import('./fixtures/app.ts');
    const undeclared = async (app: import('fastify').FastifyInstance) => {
      app.get('/open', async () => ({ oops: true }));
    };
    await t.rejects(
      (async () => {
        const app = await buildApp({
          log: createLogger('t'),
          readiness: { check: async () => ({ ready: true, checks: {} }) },
          pool: f.pool,
          rateLimits: DEFAULT_LIMITS,
          v1Routes: [undeclared],
        });
        await app.ready();
      })(),
      /route GET \/api\/v1\/open declares no access/,
    );
  });

  t.test('GET /api/v1/openapi.json: OpenAPI 3 from the same schemas, public', async (t) => {
    const res = await f.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    t.equal(res.statusCode, 200);
    const doc = res.json();
    t.match(doc.openapi, /^3\./);
    t.equal(doc.info.version, 'v1.4');
    t.same(doc.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: 'Authorization: Bearer <API_KEY>',
    });
    const me = doc.paths['/api/v1/me'].get;
    t.same(me.security, [{ bearer: [] }]);
    t.same(
      Object.keys(me.responses).sort(),
      ['200', '400', '401', '403', '429', '500'],
      'a NUL in the query string is a 400 on every route',
    );
    t.ok(
      me.responses['200'].content['application/json'].schema.properties.apiKey.properties.webhookSecret,
      'webhookSecret documented',
    );
    const usage = doc.paths['/api/v1/credits/usage'].get;
    t.same(usage.parameters.map((p: { name: string }) => p.name).sort(), ['limit', 'page']);
    t.same(
      usage.responses['200'].content['application/json'].schema.properties.history.items.properties.type.anyOf.map(
        (x: { enum?: string[]; const?: string }) => x.enum?.[0] ?? x.const,
      ),
      ['audit', 'apply', 'purchase', 'adjustment'],
    );
    t.notOk(doc.paths['/api/v1/openapi.json'], 'the document does not list itself');
  });
});
