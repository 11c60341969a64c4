import t from 'tap';
import { API_VERSION } from '../../../../core/apiVersion.ts';
import { accepted, CONTENT, rejected, URL } from '../../../unit/api/audits/submissionCases.ts';
import { createKey } from '../../../../services/admin/operations.ts';
import { auditApi, bearer, completeAudit, failAudit, PUBLIC_BASE_URL, startAudit } from './fixtures/auditApi.ts';

/** POST /audits (spec 4.2, 7, 8) over HTTP on a real database. */
t.test('POST /api/v1/audits', async (t) => {
  const f = await auditApi(t);
  const post = (apiKey: string, payload: unknown, headers: Record<string, string> = {}) =>
    f.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: { ...bearer(apiKey), 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
    });
  const count = async (sql: string, params: unknown[]) =>
    (await f.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

  t.test('every validation rule: 400 invalid_request with its message and field; nothing created', async (t) => {
    const a = await f.account();
    for (const c of rejected) {
      const res = await post(a.apiKey, c.body);
      t.equal(res.statusCode, 400, `${c.name}: 400`);
      const body = res.json();
      const { code, message, requestId, field } = body.error;
      t.same(
        { code, message, requestId, field },
        {
          code: 'invalid_request',
          message: c.message,
          requestId: res.headers['x-request-id'],
          field: c.field ?? undefined,
        },
        c.name,
      );
      t.equal(body.apiVersion, API_VERSION);
    }
    t.equal(
      await count(`events WHERE account_id = $1 AND type IN ('AuditRequested', 'AuditAdmitted')`, [a.accountId]),
      0,
      'no event appended',
    );
    t.equal(await count('audits WHERE account_id = $1', [a.accountId]), 0, 'no audit');
    const empty = await f.app.inject({ method: 'POST', url: '/api/v1/audits', headers: bearer(a.apiKey) });
    t.equal(empty.statusCode, 400, 'no body at all');
    t.equal(empty.json().error.message, 'The body must be a JSON object with url or content');
  });

  t.test('every accepted body: 202 {id, status queued, auditId, project, createdAt, apiVersion}', async (t) => {
    const a = await f.account({ unlimited: true });
    for (const c of accepted) {
      const res = await post(a.apiKey, c.body);
      t.equal(res.statusCode, 202, c.name);
      const body = res.json();
      t.match(
        body,
        {
          id: /^job_/,
          status: 'queued',
          auditId: /^aud_/,
          project: c.body.project ?? null,
          createdAt: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
          apiVersion: 'v1.4',
        },
        c.name,
      );
      t.same(Object.keys(body).sort(), ['apiVersion', 'auditId', 'createdAt', 'id', 'project', 'status']);
      // Free a place in flight for the next case (three at a time).
      await failAudit(f.pool, a.accountId, body.auditId);
    }
  });

  t.test('the request is stored as validated; content without a title takes the keyword as its title', async (t) => {
    const a = await f.account();
    const res = await post(a.apiKey, {
      content: CONTENT,
      keyword: ' descale kettle ',
      language: 'en',
      project: 'Kitchen',
      share: true,
      shareExpiresInDays: 30,
      webhookUrl: 'https://hooks.example.com/x',
    });
    t.equal(res.statusCode, 202);
    const row = (await f.pool.query('SELECT * FROM audits WHERE audit_id = $1', [res.json().auditId])).rows[0];
    t.match(row, {
      source: 'api',
      // Supplied content has nothing to fetch: started with its acceptance (docs/api-decisions.md).
      status: 'running',
      url: null,
      domain: null,
      keyword: 'descale kettle',
      language: 'en',
      title: 'descale kettle',
      project: 'Kitchen',
      share: true,
      share_expires_in_days: 30,
      webhook_url: 'https://hooks.example.com/x',
      idempotency_key: null,
    });
    t.equal(row.job_id, res.json().id);
    const get = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${res.json().id}`,
      headers: bearer(a.apiKey),
    });
    t.same(
      get.json(),
      { ...res.json(), status: 'running' },
      'GET at once answers what the 202 said, started (the read model is written with the request)',
    );
  });

  t.test('X-RateLimit-* on every response of the submission endpoint, 202 and 400 alike', async (t) => {
    const a = await f.account();
    for (const payload of [{ url: URL }, { url: 42 }]) {
      const res = await post(a.apiKey, payload);
      t.equal(res.headers['x-ratelimit-limit'], '1000');
      t.match(res.headers['x-ratelimit-remaining'], /^\d+$/);
      t.match(res.headers['x-ratelimit-reset'], /^\d{10}$/);
    }
  });

  t.test('Idempotency-Key: a retry is the existing job with 200; the first request binds', async (t) => {
    const a = await f.account({ credits: 5 });
    const key = { 'idempotency-key': 'order-4711:retry-safe' };
    const first = await post(a.apiKey, { url: URL, project: 'First' }, key);
    t.equal(first.statusCode, 202);
    const again = await post(
      a.apiKey,
      { url: 'https://example.org/other', project: 'Second', keyword: 'changed' },
      key,
    );
    t.equal(again.statusCode, 200, 'a repeat: 200');
    t.same(again.json(), first.json(), 'the same job, as it is now, unchanged by the second body');
    t.equal(await count('audits WHERE account_id = $1', [a.accountId]), 1, 'one audit');
    t.equal(await count(`events WHERE account_id = $1 AND type = 'AuditAdmitted'`, [a.accountId]), 1, 'admitted once');
    const invalidRetry = await post(a.apiKey, { url: URL, share: 'true' }, key);
    t.equal(invalidRetry.statusCode, 400, 'a repeat with an invalid body is still a 400');

    await startAudit(f.pool, a.accountId, first.json().auditId);
    await f.waitFor(a.accountId, first.json().auditId, (r) => r.status === 'running');
    const running = await post(a.apiKey, { url: URL }, key);
    t.equal(running.statusCode, 200);
    t.same(running.json(), { ...first.json(), status: 'running' }, 'the job in its current state');

    const other = await f.account();
    const otherAccount = await post(other.apiKey, { url: URL }, key);
    t.equal(otherAccount.statusCode, 202, 'the same key on another account is another job');
    t.not(otherAccount.json().id, first.json().id);

    const done = await post(a.apiKey, { content: CONTENT }, { 'idempotency-key': 'done-1' });
    await completeAudit(f.pool, a.accountId, done.json().auditId);
    await f.waitFor(a.accountId, done.json().auditId, (r) => r.status === 'completed');
    const replayDone = await post(a.apiKey, { content: CONTENT }, { 'idempotency-key': 'done-1' });
    t.equal(replayDone.statusCode, 200);
    t.match(
      replayDone.json(),
      {
        id: done.json().id,
        status: 'completed',
        meta: { apiVersion: 'v1.4', reportUrl: `${PUBLIC_BASE_URL}/app/audits/${done.json().auditId}` },
      },
      'a completed job: the full result',
    );
  });

  t.test(
    'Idempotency-Key replay to a key without audits:read: the job in the submission shape, never the result',
    async (t) => {
      const a = await f.account({ credits: 5 });
      const writeOnly = await createKey(f.pool, { accountId: a.accountId, scopes: ['audits:write'] });
      const key = { 'idempotency-key': 'shared-across-keys' };
      const first = await post(a.apiKey, { content: CONTENT, project: 'P' }, key);
      t.equal(first.statusCode, 202);
      const submitted = first.json();
      const shape = ['apiVersion', 'auditId', 'createdAt', 'id', 'project', 'status'];

      const queued = await post(writeOnly.apiKey, { content: CONTENT }, key);
      t.equal(queued.statusCode, 200);
      t.same(queued.json(), { ...submitted, status: 'running' }, 'in flight: what the 202 said, started');

      await completeAudit(f.pool, a.accountId, submitted.auditId);
      await f.waitFor(a.accountId, submitted.auditId, (r) => r.status === 'completed');
      const done = await post(writeOnly.apiKey, { content: CONTENT }, key);
      t.equal(done.statusCode, 200);
      t.same(Object.keys(done.json()).sort(), shape, 'no result field: no meta, scores, csi, recommendations');
      t.same(done.json(), { ...submitted, status: 'completed' }, 'the job as it is now, in the submission shape');

      const read = await post(a.apiKey, { content: CONTENT }, key);
      t.match(
        read.json(),
        { id: submitted.id, status: 'completed', meta: { apiVersion: 'v1.4' } },
        'a read key: the full result',
      );
    },
  );

  // services/commands/submitAudit.ts reads the audit stream twice in READ COMMITTED: a retry that
  // loses the race sees the winner's AuditRequested on the second read, gets [] from the decider and
  // fails on events[0] (500). Fix for its owner: when that append yields no event, throw
  // concurrency_conflict so transact() runs it again and it becomes a replay.
  t.test('Idempotency-Key: racing retries make one audit', async (t) => {
    const a = await f.account({ credits: 5 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post(a.apiKey, { url: URL }, { 'idempotency-key': 'race' })),
    );
    t.same(results.map((r) => r.statusCode).sort(), [200, 200, 200, 200, 200, 200, 200, 202]);
    t.equal(new Set(results.map((r) => r.json().id)).size, 1);
    t.equal(await count('audits WHERE account_id = $1', [a.accountId]), 1);
  });

  t.test('Idempotency-Key must be 1 to 255 visible ASCII characters', async (t) => {
    const a = await f.account();
    const message =
      'Idempotency-Key must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces)';
    for (const bad of ['', 'k'.repeat(256), 'has space', 'tab\there', 'clé']) {
      const res = await post(a.apiKey, { url: URL }, { 'idempotency-key': bad });
      t.equal(res.statusCode, 400, JSON.stringify(bad));
      t.match(res.json().error, { code: 'invalid_request', message, field: 'Idempotency-Key' });
    }
    const longest = await post(a.apiKey, { url: URL }, { 'idempotency-key': 'k'.repeat(255) });
    t.equal(longest.statusCode, 202, '255 characters');
    t.equal(await count('audits WHERE account_id = $1', [a.accountId]), 1);
  });

  t.test('402 insufficient_credits without a credit; unlimited accounts are exempt', async (t) => {
    const broke = await f.account({ credits: 0 });
    const res = await post(broke.apiKey, { url: URL });
    t.equal(res.statusCode, 402);
    t.match(res.json(), {
      error: { code: 'insufficient_credits', message: 'Insufficient credits' },
      apiVersion: 'v1.4',
    });
    t.equal(await count('audits WHERE account_id = $1', [broke.accountId]), 0);
    const unlimited = await f.account({ credits: 0, unlimited: true });
    t.equal((await post(unlimited.apiKey, { url: URL })).statusCode, 202);
  });

  t.test('429 rate_limited with a fourth audit in flight (queued ones count), retryAfter and headers', async (t) => {
    const a = await f.account({ credits: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(a.apiKey, { url: `${URL}?n=${i}` });
      t.equal(res.statusCode, 202);
      ids.push(res.json().auditId);
    }
    await startAudit(f.pool, a.accountId, ids[0]!);
    const fourth = await post(a.apiKey, { url: URL });
    t.equal(fourth.statusCode, 429);
    const body = fourth.json();
    t.match(body.error, {
      code: 'rate_limited',
      message: 'At most 3 audits at a time per account; wait for one to finish',
      retryAfter: 15,
    });
    t.equal(fourth.headers['retry-after'], String(body.error.retryAfter), 'Retry-After equals retryAfter');
    t.ok(
      fourth.headers['x-ratelimit-limit'] &&
        fourth.headers['x-ratelimit-remaining'] &&
        fourth.headers['x-ratelimit-reset'],
      'X-RateLimit-* on the 429',
    );
    const replay = await post(a.apiKey, { url: URL }, { 'idempotency-key': 'fourth' });
    t.equal(replay.statusCode, 429, 'a new key is a new audit: still refused');
    await failAudit(f.pool, a.accountId, ids[1]!);
    t.equal((await post(a.apiKey, { url: URL })).statusCode, 202, 'one finished: a place is free');
  });

  t.test('the request-rate window: 429 past the limit of the submission window', async (t) => {
    const g = await auditApi(t, { rateLimits: { submission: 2 } });
    const a = await g.account();
    const send = () =>
      g.app.inject({ method: 'POST', url: '/api/v1/audits', headers: bearer(a.apiKey), payload: { url: 42 } });
    t.equal((await send()).headers['x-ratelimit-remaining'], '1');
    t.equal((await send()).headers['x-ratelimit-remaining'], '0');
    const over = await send();
    t.equal(over.statusCode, 429);
    t.match(over.json().error, { code: 'rate_limited', retryAfter: Number(over.headers['retry-after']) });
  });

  t.test('private addresses are accepted when ALLOW_PRIVATE_ADDRESSES is on', async (t) => {
    const g = await auditApi(t, { allowPrivateAddresses: true });
    const a = await g.account();
    const res = await g.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: bearer(a.apiKey),
      payload: { url: 'http://127.0.0.1:8081/page', webhookUrl: 'https://10.1.2.3/hook' },
    });
    t.equal(res.statusCode, 202);
  });
});
