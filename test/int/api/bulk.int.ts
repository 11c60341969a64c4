import t from 'tap';
import type { Resolver } from '../../../infra/http/resolver.ts';
import { createKey } from '../../../services/admin/operations.ts';
import { auditApi, bearer } from './audits/fixtures/auditApi.ts';

/**
 * POST /audits/bulk at acceptance, over HTTP on a real database (no bulk role: a batch stays
 * queued). Host names resolve through a hostile DNS of the test's own, as in hostile.int.ts.
 */
const dns: Record<string, string> = {
  'intranet.example': '10.1.2.3',
  'loopback.example': '127.0.0.1',
  'v6.example': '::1',
  'public.example': '93.184.216.34',
};
const lookups: string[] = [];
const resolver: Resolver = async (host) => {
  lookups.push(host);
  const address = dns[host];
  if (!address) throw new Error(`ENOTFOUND ${host}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

t.test('POST /api/v1/audits/bulk: the acceptance-time checks of single audits', async (t) => {
  const f = await auditApi(t, { resolver });
  const post = (apiKey: string, body: unknown, headers: Record<string, string> = {}) =>
    f.app.inject({
      method: 'POST',
      url: '/api/v1/audits/bulk',
      headers: { ...bearer(apiKey), 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  const batches = async (accountId: string) =>
    (
      await f.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND type = 'BulkSubmitted'`,
        [accountId],
      )
    ).rows[0]!.n;

  t.test('urls[] whose host resolves to a private address: 400 at once, counted with the others', async (t) => {
    const a = await f.account();
    lookups.length = 0;
    const res = await post(a.apiKey, {
      urls: [
        'https://public.example/a',
        'https://intranet.example/wiki',
        'not a url',
        { url: 'http://loopback.example:8080/admin', keyword: 'admin page' },
        'https://v6.example/',
        'https://intranet.example/other',
        'https://unresolvable.example/post',
      ],
    });
    t.equal(res.statusCode, 400, res.body);
    const { error } = res.json();
    t.equal(error.code, 'invalid_request');
    t.equal(error.message, 'Invalid URLs in the list (5)', 'n counts the DNS refusals with the others');
    t.equal(error.requestId, res.headers['x-request-id']);
    t.same(
      error.invalidUrls.map((e: { url: string }) => e.url),
      [
        'https://intranet.example/wiki',
        'not a url',
        'http://loopback.example:8080/admin',
        'https://v6.example/',
        'https://intranet.example/other',
      ],
      'in request order',
    );
    t.match(
      error.invalidUrls[0].error,
      /^url is not allowed: intranet\.example resolves to 10\.1\.2\.3, which is not public/,
    );
    t.match(error.invalidUrls[2].error, /loopback\.example resolves to 127\.0\.0\.1, which is not public/);
    t.match(error.invalidUrls[3].error, /v6\.example resolves to ::1, which is not public/);
    t.equal(lookups.filter((h) => h === 'intranet.example').length, 1, 'one lookup per host name');
    t.equal(await batches(a.accountId), 0, 'no batch');
  });

  t.test('a webhookUrl whose host resolves to a private address: 400 with its field', async (t) => {
    const a = await f.account();
    const res = await post(a.apiKey, {
      urls: ['https://public.example/a'],
      webhookUrl: 'https://loopback.example/hook',
    });
    t.equal(res.statusCode, 400, res.body);
    t.match(res.json().error, {
      code: 'invalid_request',
      field: 'webhookUrl',
      message: /^webhookUrl is not allowed: loopback\.example resolves to 127\.0\.0\.1, which is not public/,
    });
    t.equal(await batches(a.accountId), 0, 'no batch');
  });

  t.test('public and (for now) unresolvable names are accepted; the fetch decides', async (t) => {
    const a = await f.account();
    const res = await post(a.apiKey, {
      urls: ['https://public.example/a', 'https://unresolvable.example/b'],
      webhookUrl: 'https://public.example/hook',
    });
    t.equal(res.statusCode, 202, res.body);
    t.match(res.json(), { id: /^bulk_/, status: 'queued', urlCount: 2 });
  });

  t.test('Idempotency-Key replay to a key without audits:read: the batch in the submission shape', async (t) => {
    const a = await f.account();
    const writeOnly = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:write'] });
    const body = { urls: ['https://public.example/a', 'https://public.example/b'], project: 'B' };
    const first = await post(a.apiKey, body, { 'idempotency-key': 'batch-shared' });
    t.equal(first.statusCode, 202, first.body);
    const replay = await post(writeOnly.apiKey, body, { 'idempotency-key': 'batch-shared' });
    t.equal(replay.statusCode, 200);
    t.same(replay.json(), first.json(), 'the 202 fields, no entries, scores or job ids');
    const read = await post(a.apiKey, body, { 'idempotency-key': 'batch-shared' });
    t.match(read.json(), { id: first.json().id, entries: Array }, 'a read key: the batch as GET shows it');
  });

  t.test('the 202 echoes the project as stored (NUL and lone surrogates as U+FFFD)', async (t) => {
    const a = await f.account();
    const res = await post(a.apiKey, {
      urls: [{ url: 'https://public.example/a', keyword: 'k\u0000' }],
      project: 'p\u0000\ud800',
    });
    t.equal(res.statusCode, 202, res.body);
    t.equal(res.json().project, 'p\uFFFD\uFFFD');
    const got = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits/bulk/${res.json().id}`,
      headers: bearer(a.apiKey),
    });
    t.equal(got.json().project, res.json().project, 'GET answers what the 202 said');
    t.equal(got.json().entries[0].keyword, 'k\uFFFD');
  });
});
