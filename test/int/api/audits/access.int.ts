import t from 'tap';
import { createKey } from '../../../../services/admin/operations.ts';
import { ACCESS } from '../../../../services/api/auth/access.ts';
import { URL } from '../../../unit/api/audits/submissionCases.ts';
import { auditApi, bearer, seedAudit } from './fixtures/auditApi.ts';

/** Spec 5: scopes of the new routes, and one account never seeing another's audits. */
t.test('scopes and isolation of the audit routes', async (t) => {
  const f = await auditApi(t);
  const a = await f.account();
  const read = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:read'] });
  const write = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:write'] });
  const own = await seedAudit(f.pool, {
    accountId: a.accountId,
    now: new Date(),
    request: { url: URL, project: 'Mine' },
  });

  t.equal(ACCESS['POST /audits'], 'audits:write');
  t.equal(ACCESS['GET /audits'], 'audits:read');
  t.equal(ACCESS['GET /audits/:id'], 'audits:read');
  t.equal(ACCESS['GET /projects'], 'audits:read');

  const routes: [string, string, 'audits:read' | 'audits:write', unknown?][] = [
    ['POST', '/api/v1/audits', 'audits:write', { url: URL }],
    ['GET', '/api/v1/audits', 'audits:read'],
    ['GET', `/api/v1/audits/${own.jobId}`, 'audits:read'],
    ['GET', '/api/v1/projects', 'audits:read'],
  ];
  for (const [method, url, scope, payload] of routes) {
    for (const [name, key] of [
      ['read-only', read.apiKey],
      ['write-only', write.apiKey],
      ['both', a.apiKey],
    ] as const) {
      const res = await f.app.inject({
        method: method as 'GET',
        url,
        headers: bearer(key),
        ...(payload ? { payload: payload as object } : {}),
      });
      const allowed = name === 'both' || (name === 'read-only' ? scope === 'audits:read' : scope === 'audits:write');
      if (allowed)
        t.ok(
          res.statusCode === 200 || res.statusCode === 202,
          `${method} ${url} with a ${name} key: ${res.statusCode}`,
        );
      else
        t.match(
          { status: res.statusCode, error: res.json().error },
          {
            status: 403,
            error: {
              code: 'insufficient_scope',
              message: `This API key lacks the ${scope} scope`,
              requiredScope: scope,
            },
          },
          `${method} ${url} with a ${name} key`,
        );
    }
    const anonymous = await f.app.inject({
      method: method as 'GET',
      url,
      ...(payload ? { payload: payload as object } : {}),
    });
    t.equal(anonymous.statusCode, 401, `${method} ${url} without a key`);
  }

  t.test('another account: 404 for the job, never in its list or projects', async (t) => {
    const other = await f.account();
    for (const id of [own.jobId!, own.auditId]) {
      const res = await f.app.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: bearer(other.apiKey) });
      t.equal(res.statusCode, 404);
    }
    const list = await f.app.inject({ method: 'GET', url: '/api/v1/audits?source=all', headers: bearer(other.apiKey) });
    t.match(list.json(), { data: [], total: 0 });
    const projects = await f.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer(other.apiKey) });
    t.match(projects.json(), { data: [], total: 0 });
    const sneaky = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits?accountId=${a.accountId}`,
      headers: bearer(other.apiKey),
    });
    t.match(sneaky.json(), { data: [], total: 0 }, 'the account comes from the key, never from the request');
  });

  t.test('the OpenAPI document lists the new routes with their schemas', async (t) => {
    const doc = (await f.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    t.ok(doc.paths['/api/v1/audits'].post.requestBody.content['application/json'].schema.properties.shareExpiresInDays);
    t.same(Object.keys(doc.paths['/api/v1/audits'].post.responses).sort(), [
      '200',
      '202',
      '400',
      '401',
      '402',
      '403',
      '415',
      '429',
      '500',
    ]);
    t.ok(doc.paths['/api/v1/audits'].get.parameters.some((p: { name: string }) => p.name === 'domain'));
    t.ok(doc.paths['/api/v1/audits/{id}'].get.responses['404']);
    t.ok(doc.paths['/api/v1/projects'].get.responses['200']);
  });
});
