import t from 'tap';
import { createAccount, createKey } from '../../../services/admin/operations.ts';
import { eventually } from '../../helpers/db.ts';
import { apiFixture, bearer, DEFAULT_LIMITS } from './fixtures/app.ts';
import { startApiProcesses } from './fixtures/serverChildren.ts';

type Res = { statusCode: number; headers: Record<string, unknown>; json(): any };

const limitHeaders = (res: Res) => ({
  limit: Number(res.headers['x-ratelimit-limit']),
  remaining: Number(res.headers['x-ratelimit-remaining']),
  reset: Number(res.headers['x-ratelimit-reset']),
});

/** Spec 8: per-key windows, separate for share, apply and bulk cancel; headers on every response. */
t.test('rate limits in one process', async (t) => {
  const f = await apiFixture(t, { rateLimits: { submission: 3, share: 2, apply: 2, bulkCancel: 1, read: 5 } });
  const a = await createAccount(f.pool, { email: 'rl@example.com' });
  const call = (method: string, url: string, key = a.apiKey) =>
    f.app.inject({ method: method as 'POST', url, headers: bearer(key) });

  t.test('X-RateLimit-* on every response of a limited route; 429 with retryAfter and Retry-After', async (t) => {
    const before = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= 3; i++) {
      const res = await call('POST', '/api/v1/test/submit');
      t.equal(res.statusCode, 200, `request ${i} passes`);
      const h = limitHeaders(res);
      t.same([h.limit, h.remaining], [3, 3 - i], `request ${i}: limit and remaining`);
      t.ok(h.reset > before && h.reset <= before + 61, 'reset is the unix second the window ends');
      t.equal(h.reset % 60, 0, 'windows are aligned on the minute');
    }
    const res = await call('POST', '/api/v1/test/submit');
    t.equal(res.statusCode, 429);
    const body = res.json();
    t.equal(body.error.code, 'rate_limited');
    t.match(body.error.message, /^Rate limit exceeded: 3 requests per minute; retry in \d+ s$/);
    t.equal(body.error.requestId, res.headers['x-request-id']);
    t.equal(body.apiVersion, 'v1.4');
    t.ok(
      Number.isInteger(body.error.retryAfter) && body.error.retryAfter >= 1 && body.error.retryAfter <= 60,
      'retryAfter in seconds',
    );
    t.equal(res.headers['retry-after'], String(body.error.retryAfter), 'Retry-After equals retryAfter');
    const h = limitHeaders(res);
    t.same([h.limit, h.remaining], [3, 0], '429 carries X-RateLimit-* too');
    t.ok(
      Math.abs(h.reset - (Math.floor(Date.now() / 1000) + body.error.retryAfter)) <= 1,
      'Retry-After points at the reset',
    );
  });

  t.test('share (POST and DELETE), apply and bulk cancel have windows of their own', async (t) => {
    // The submission window is spent (previous test); the others are untouched by it.
    t.equal((await call('POST', '/api/v1/test/share')).statusCode, 200);
    t.equal((await call('DELETE', '/api/v1/test/share')).statusCode, 200, 'DELETE share counts in the share window');
    const share3 = await call('POST', '/api/v1/test/share');
    t.equal(share3.statusCode, 429, 'POST and DELETE share share one window of 2');
    t.equal(limitHeaders(share3).limit, 2);
    t.equal((await call('POST', '/api/v1/test/apply')).statusCode, 200);
    t.equal(limitHeaders(await call('POST', '/api/v1/test/apply')).remaining, 0);
    t.equal((await call('POST', '/api/v1/test/apply')).statusCode, 429);
    t.equal((await call('POST', '/api/v1/test/cancel')).statusCode, 200);
    const cancel2 = await call('POST', '/api/v1/test/cancel');
    t.equal(cancel2.statusCode, 429);
    t.equal(limitHeaders(cancel2).limit, 1);
  });

  t.test('the apply poll is not limited and has no headers', async (t) => {
    for (let i = 0; i < 12; i++) {
      const res = await call('GET', '/api/v1/test/poll');
      t.equal(res.statusCode, 200);
      t.notOk(res.headers['x-ratelimit-limit']);
    }
  });

  t.test('reads (GET /me, /credits/usage) count in a read window of their own', async (t) => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call('GET', i % 2 ? '/api/v1/me' : '/api/v1/credits/usage')).statusCode);
    t.same(statuses, [200, 200, 200, 200, 200, 429]);
  });

  t.test('budgets are per key: another key of the same account has its own', async (t) => {
    const other = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:read', 'audits:write'] });
    const res = await call('POST', '/api/v1/test/submit', other.apiKey);
    t.equal(res.statusCode, 200);
    t.equal(limitHeaders(res).remaining, 2);
  });

  t.test('refused requests do not count: 401 and 403 leave the budget alone', async (t) => {
    const reader = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:read'] });
    for (let i = 0; i < 5; i++) t.equal((await call('POST', '/api/v1/test/submit', reader.apiKey)).statusCode, 403);
    const r = await f.pool.query(`SELECT count(*)::int AS n FROM rate_limit_counters WHERE key_id = $1`, [
      reader.keyId,
    ]);
    t.equal(r.rows[0].n, 0);
  });

  t.test('401 and 403 of a limited route carry X-RateLimit-* too (spec 8: every response)', async (t) => {
    const reader = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:read'] });
    const forbidden = await call('POST', '/api/v1/test/submit', reader.apiKey);
    t.equal(forbidden.statusCode, 403);
    const h403 = limitHeaders(forbidden);
    t.same([h403.limit, h403.remaining], [3, 3], "403: the key's window as it stands, this request not counted");
    t.equal(h403.reset % 60, 0);
    const spent = await call('POST', '/api/v1/test/submit'); // a's submission window is spent
    t.equal(limitHeaders(spent).remaining, 0);
    for (const headers of [{}, bearer('not-a-key')]) {
      const res = await f.app.inject({ method: 'POST', url: '/api/v1/test/submit', headers });
      t.equal(res.statusCode, 401);
      const h = limitHeaders(res);
      t.same([h.limit, h.remaining], [3, 3], '401: no key, a fresh window');
      t.ok(h.reset % 60 === 0 && h.reset > Date.now() / 1000, 'reset: the end of the current window');
    }
    const poll = await f.app.inject({ method: 'GET', url: '/api/v1/test/poll' });
    t.equal(poll.statusCode, 401);
    t.notOk(poll.headers['x-ratelimit-limit'], 'not on a route without a window');
  });

  t.test('the default window is RATE_LIMIT_PER_MINUTE (20 by default)', async (t) => {
    t.equal(DEFAULT_LIMITS.submission, 20);
    const { loadConfig } = await import('../../../infra/config.ts');
    const c = loadConfig({ RATE_LIMIT_PER_MINUTE: '7' });
    t.same(c.rateLimits, { windowSeconds: 60, submission: 7, share: 7, apply: 7, bulkCancel: 7, read: 600 });
    t.same(loadConfig({}).rateLimits.submission, 20);
    t.throws(
      () => loadConfig({ RATE_LIMIT_SHARE_PER_MINUTE: '0' }),
      /RATE_LIMIT_SHARE_PER_MINUTE must be an integer from 1/,
    );
  });
});

t.test('a window starts afresh when it ends', async (t) => {
  const f = await apiFixture(t, { rateLimits: { windowSeconds: 2, submission: 1 } });
  const a = await createAccount(f.pool, { email: 'reset@example.com' });
  const submit = () => f.app.inject({ method: 'POST', url: '/api/v1/test/submit', headers: bearer(a.apiKey) });
  // Start just after a window boundary so both requests fall into the same 2-second window.
  await eventually(async () => Date.now() % 2000 < 300, 5000, 'a fresh window');
  t.equal((await submit()).statusCode, 200);
  const refused = await submit();
  t.equal(refused.statusCode, 429);
  await new Promise((r) => setTimeout(r, refused.json().error.retryAfter * 1000 + 100));
  t.equal((await submit()).statusCode, 200, 'allowed again after Retry-After');
});

t.test('an API alone counts in memory; a second API process starting takes the count over exactly', async (t) => {
  const f = await apiFixture(t, { rateLimits: { submission: 6 } });
  const a = await createAccount(f.pool, { email: 'handover@example.com' });
  await eventually(async () => Date.now() % 60_000 < 40_000, 25_000, 'room in the current minute');
  const viaApp = async () => {
    const res = await f.app.inject({ method: 'POST', url: '/api/v1/test/submit', headers: bearer(a.apiKey) });
    return [res.statusCode, res.headers['x-ratelimit-remaining']];
  };
  t.same(
    [await viaApp(), await viaApp(), await viaApp()],
    [
      [200, '5'],
      [200, '4'],
      [200, '3'],
    ],
  );
  const [port] = await startApiProcesses(t, f.url, { ...DEFAULT_LIMITS, submission: 6 }, 1);
  const viaChild = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/test/submit`, {
      method: 'POST',
      headers: bearer(a.apiKey),
    });
    await res.arrayBuffer();
    return [res.status, res.headers.get('x-ratelimit-remaining')];
  };
  t.same(
    [await viaChild(), await viaApp(), await viaChild(), await viaApp()],
    [
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ],
    'the count goes on across both, no request counted twice or forgotten',
  );
});

t.test('two API processes on one database share the counters', async (t) => {
  const f = await apiFixture(t);
  const a = await createAccount(f.pool, { email: 'two@example.com' });
  const limits = { ...DEFAULT_LIMITS, submission: 10, read: 6 };
  const ports = await startApiProcesses(t, f.url, limits);
  t.not(ports[0], ports[1]);
  const send = (port: number, method: string, path: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, { method, headers: bearer(a.apiKey) });

  // Start early in a window, so the 12 requests fall into one.
  await eventually(async () => Date.now() % 60_000 < 50_000, 15_000, 'room in the current minute');
  const seen: [number, number, string | null][] = [];
  for (let i = 0; i < 12; i++) {
    const res = await send(ports[i % 2]!, 'POST', '/api/v1/test/submit');
    seen.push([i % 2, res.status, res.headers.get('x-ratelimit-remaining')]);
    await res.arrayBuffer();
  }
  t.same(
    seen.map((s) => s[1]),
    [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429],
    'ten allowed in all, alternating between the processes',
  );
  t.same(
    seen.map((s) => s[2]),
    ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0', '0', '0'],
    'one counter, whichever process answers',
  );

  // Concurrent requests to both at once: still exactly the limit passes.
  const burst = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      send(ports[i % 2]!, 'GET', '/api/v1/me').then(async (r) => (await r.arrayBuffer(), r.status)),
    ),
  );
  t.equal(
    burst.filter((s) => s === 200).length,
    6,
    'exactly the read limit passes a concurrent burst over two processes',
  );
  t.equal(burst.filter((s) => s === 429).length, 10);
});
