import t, { type Test } from 'tap';
import type { Resolver } from '../../../infra/http/resolver.ts';
import { getContent } from '../../../infra/eventStore/contentStore.ts';
import { auditApi, bearer } from './audits/fixtures/auditApi.ts';

type Res = { statusCode: number; headers: Record<string, unknown>; json(): any };

/** The spec's error shape (spec 7) with its X-Request-Id and apiVersion, never a 500. */
const errorShape = (t: Test, res: Res, status: number, code: string, message?: RegExp) => {
  t.equal(res.statusCode, status, `status ${status}`);
  const body = res.json();
  t.equal(body.error.code, code, `code ${code}`);
  if (message) t.match(body.error.message, message);
  t.ok(res.headers['x-request-id'], 'X-Request-Id');
  t.equal(body.error.requestId, res.headers['x-request-id'], 'requestId is the X-Request-Id');
  t.equal(body.apiVersion, 'v1.4');
};

// A hostile DNS: names of the test's own choosing resolve where the test says.
const dns: Record<string, string> = {
  'intranet.example': '10.1.2.3',
  'loopback.example': '127.0.0.1',
  'v6.example': '::1',
  'public.example': '93.184.216.34',
};
const resolver: Resolver = async (host) => {
  const address = dns[host];
  if (!address) throw new Error(`ENOTFOUND ${host}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

const PROSE = 'Bicycles for the city need good brakes, upright seating and mudguards for wet streets. ';

t.test('the contract under hostile input', async (t) => {
  const f = await auditApi(t, { resolver });
  const a = await f.account({ unlimited: true });
  const post = (payload: string, headers: Record<string, string> = {}) =>
    f.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: { ...bearer(a.apiKey), 'content-type': 'application/json', ...headers },
      payload,
    });
  const release = async (auditId: string) => {
    // Three in flight at most: end each accepted audit so the next can be admitted.
    const { failAudit } = await import('./audits/fixtures/auditApi.ts');
    await failAudit(f.pool, a.accountId, auditId);
  };

  t.test('NUL and lone surrogates in any text field are stored (as U+FFFD), never a 500', async (t) => {
    const body = {
      content: `${PROSE}\u0000 and a lone \ud800 surrogate. ${PROSE}`,
      keyword: 'city\u0000bikes',
      project: 'p\u0000q',
      title: 'T\udc00',
    };
    const res = await post(JSON.stringify(body));
    t.equal(res.statusCode, 202, res.body);
    const { auditId } = res.json();
    t.equal(res.json().project, 'p\uFFFDq', 'the 202 echoes the project as stored');
    const sent = await post(JSON.stringify({ content: PROSE.repeat(2), project: 'p\u0000\ud800' }));
    t.equal(sent.json().project, 'p\uFFFD\uFFFD', "the issue's own example");
    const got = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${sent.json().id}`,
      headers: bearer(a.apiKey),
    });
    // Supplied content is started with its acceptance (docs/api-decisions.md).
    t.same(got.json(), { ...sent.json(), status: 'running' }, 'GET answers what the 202 said, started');
    await release(sent.json().auditId);
    const row = (
      await f.pool.query(`SELECT payload FROM events WHERE type = 'AuditRequested' AND stream_id = $1`, [
        `audit-${auditId}`,
      ])
    ).rows[0];
    t.equal(row.payload.keyword, 'city\uFFFDbikes');
    t.equal(row.payload.project, 'p\uFFFDq');
    t.equal(row.payload.title, 'T\uFFFD');
    t.equal(
      await getContent(f.pool, row.payload.contentRef),
      body.content.replace('\u0000', '\uFFFD').replace('\ud800', '\uFFFD'),
      'the blob, addressed by what is stored',
    );
    const listed = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits?project=${encodeURIComponent('p\uFFFDq')}`,
      headers: bearer(a.apiKey),
    });
    t.equal(listed.json().total, 1, 'the stored project is found by its stored name');
    await release(auditId);
  });

  t.test('NUL in the path or query string: 400 invalid_request', async (t) => {
    for (const url of ['/api/v1/audits/job_%00x', '/api/v1/audits?project=a%00b', '/api/v1/audits?domain=%00']) {
      errorShape(
        t,
        await f.app.inject({ method: 'GET', url, headers: bearer(a.apiKey) }),
        400,
        'invalid_request',
        /NUL/,
      );
    }
  });

  t.test('framework errors in the spec shape: undeclared methods, bad escapes, over-long ids', async (t) => {
    for (const method of ['QUERY', 'PROPFIND', 'PATCH', 'PUT', 'TRACE']) {
      for (const withBody of [false, true]) {
        const res = await f.app.inject({
          method: method as 'GET',
          url: '/api/v1/audits/job_x',
          headers: { ...bearer(a.apiKey), ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: '{}' } : {}),
        });
        errorShape(
          t,
          res,
          405,
          'method_not_allowed',
          new RegExp(`^Method ${method} is not allowed on /api/v1/audits/job_x; allowed: GET, HEAD$`),
        );
        t.equal(res.headers.allow, 'GET, HEAD', `${method}${withBody ? ' with a body' : ''}: 405 with Allow`);
      }
    }
    errorShape(
      t,
      await f.app.inject({ method: 'QUERY' as 'GET', url: '/api/v1/nowhere', headers: bearer(a.apiKey) }),
      404,
      'not_found',
    );
    errorShape(
      t,
      await f.app.inject({ method: 'GET', url: '/api/v1/audits/%zz', headers: bearer(a.apiKey) }),
      400,
      'invalid_request',
      /percent-escape/,
    );
    errorShape(
      t,
      await f.app.inject({
        method: 'GET',
        url: '/api/v1/audits/%E0%A4%A',
        headers: { ...bearer(a.apiKey), 'x-request-id': 'trace-bad-url' },
      }),
      400,
      'invalid_request',
    );
    const long = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits/job_${'x'.repeat(120)}`,
      headers: { ...bearer(a.apiKey), 'x-request-id': 'trace-long' },
    });
    errorShape(t, long, 404, 'not_found', /longer than 100 characters/);
    t.equal(long.headers['x-request-id'], 'trace-long', 'a supplied X-Request-Id is echoed here too');
    const exactly100 = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${'x'.repeat(100)}`,
      headers: bearer(a.apiKey),
    });
    errorShape(t, exactly100, 404, 'not_found', /^Audit not found$/);
  });

  t.test('a url or webhookUrl whose host resolves to a private address: 400 at once; nothing created', async (t) => {
    const before = (await f.pool.query(`SELECT count(*)::int AS n FROM events WHERE account_id = $1`, [a.accountId]))
      .rows[0].n;
    for (const [field, value, address] of [
      ['url', 'https://intranet.example/page', '10.1.2.3'],
      ['url', 'http://loopback.example:8080/', '127.0.0.1'],
      ['url', 'https://v6.example/', '::1'],
      ['webhookUrl', 'https://loopback.example/hook', '127.0.0.1'],
    ] as const) {
      const body = field === 'url' ? { url: value } : { url: 'https://public.example/post', webhookUrl: value };
      const res = await post(JSON.stringify(body));
      errorShape(
        t,
        res,
        400,
        'invalid_request',
        new RegExp(`^${field} is not allowed: .* resolves to ${address.replace(/[.:]/g, '\\$&')}, which is not public`),
      );
      t.equal(res.json().error.field, field);
    }
    t.equal(
      (await f.pool.query(`SELECT count(*)::int AS n FROM events WHERE account_id = $1`, [a.accountId])).rows[0].n,
      before,
      'no event',
    );
    for (const url of ['https://public.example/post', 'https://unresolvable.example/post']) {
      const res = await post(JSON.stringify({ url, webhookUrl: 'https://public.example/hook' }));
      t.equal(res.statusCode, 202, `${url}: a public or (for now) unresolvable name is accepted; the fetch decides`);
      await release(res.json().auditId);
    }
  });

  t.test('content is measured in characters, however it is escaped: no 413 within 200,000; 400 above', async (t) => {
    const escape = (s: string) =>
      s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const emoji = '\u{1F6B2}'; // one character, a surrogate pair: 12 bytes escaped
    const full = [...(PROSE + emoji.repeat(200_000))].slice(0, 200_000).join('');
    const res = await post(`{"content": "${escape(full)}", "keyword": "${escape('rower miejski \u0142adny')}"}`);
    t.equal(
      res.statusCode,
      202,
      `200,000 characters sent \\u-escaped (${(escape(full).length / 1e6).toFixed(1)} MB) are accepted`,
    );
    if (res.statusCode === 202) await release(res.json().auditId);
    const over = [...(PROSE + 'x'.repeat(200_000))].slice(0, 200_001).join('');
    errorShape(
      t,
      await post(JSON.stringify({ content: over })),
      400,
      'invalid_request',
      /^content must be 50 to 200,000 characters long; it has 200,001$/,
    );
    const huge = await post(JSON.stringify({ content: 'y'.repeat(3_000_000) }));
    errorShape(
      t,
      huge,
      400,
      'invalid_request',
      /^The body is larger than any valid submission: content must be 50 to 200,000 characters long$/,
    );
  });
});
