import t from 'tap';
import { runAccountCommand } from '../../../services/accounts/accountCommand.ts';
import { adjustCredits, createAccount, createKey, purchaseCredits } from '../../../services/admin/operations.ts';
import { apiFixture, bearer } from './fixtures/app.ts';

const charge = (
  pool: import('pg').Pool,
  accountId: string,
  kind: 'audit' | 'apply',
  subjectId: string,
  url: string | null = null,
  project: string | null = null,
) =>
  runAccountCommand(pool, {
    accountId,
    now: new Date(),
    command: { type: 'ChargeCredit', data: { kind, subjectId, jobId: null, url, project } },
  });
const refund = (pool: import('pg').Pool, accountId: string, kind: 'audit' | 'apply', subjectId: string) =>
  runAccountCommand(pool, {
    accountId,
    now: new Date(),
    command: { type: 'RefundCharge', data: { kind, subjectId, reason: 'failed' } },
  });

/** GET /me (2.1) and GET /credits/usage (2.8, 4.14) over the ledger projection; accounts see only their own data. */
t.test('GET /me and GET /credits/usage', async (t) => {
  const f = await apiFixture(t);
  const alice = await createAccount(f.pool, { email: 'alice@example.com', credits: 5 });
  const bob = await createAccount(f.pool, { email: 'bob@example.com' });
  const get = (url: string, key: string) => f.app.inject({ method: 'GET', url, headers: bearer(key) });

  // Alice: +5 starting, +10 purchase, audit charge, apply charge, refunded audit charge, -2 adjustment.
  await purchaseCredits(f.pool, { accountId: alice.accountId, credits: 10, paymentId: 'pay_alice1' });
  await charge(f.pool, alice.accountId, 'audit', 'aud_1', 'https://example.com/a', 'blog');
  await charge(f.pool, alice.accountId, 'apply', 'rev_1');
  await charge(f.pool, alice.accountId, 'audit', 'aud_2', 'https://example.com/b', null);
  await refund(f.pool, alice.accountId, 'audit', 'aud_2');
  const adjusted = await adjustCredits(f.pool, {
    accountId: alice.accountId,
    delta: -2,
    reason: 'goodwill reversal',
    actor: 'ops@example.com',
  });
  t.equal(adjusted.remaining, 11, 'the command answers with the balance it decided on');
  // Bob: one purchase and one charge.
  await purchaseCredits(f.pool, { accountId: bob.accountId, credits: 3, paymentId: 'pay_bob1' });
  await charge(f.pool, bob.accountId, 'audit', 'aud_bob', 'https://bob.example/x', 'secret-project');
  await f.ledgerAt(alice.accountId, 9);
  await f.ledgerAt(bob.accountId, 4);

  t.test('GET /me: spec 2.1 fields of the calling key and its account', async (t) => {
    const res = await get('/api/v1/me', alice.apiKey);
    t.equal(res.statusCode, 200);
    t.same(res.json(), {
      userId: alice.accountId,
      email: 'alice@example.com',
      role: 'user',
      auditCredits: 11,
      apiKey: { id: alice.keyId, scopes: ['audits:read', 'audits:write'], webhookSecret: alice.webhookSecret },
      apiVersion: 'v1.4',
    });
    t.match(alice.accountId, /^usr_[a-z2-7]{26}$/);
    t.match(alice.keyId, /^key_[a-z2-7]{26}$/);
  });

  t.test('GET /credits/usage: every movement newest first; the deltas add up to remaining', async (t) => {
    const res = await get('/api/v1/credits/usage', alice.apiKey);
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.remaining, 11);
    t.equal(body.used, 2, 'the audit and the apply charge; the refunded one does not count');
    t.equal(body.unlimited, false);
    t.same(
      body.history.map((h: any) => [h.type, h.delta, h.refunded, h.url, h.project]),
      [
        ['adjustment', -2, false, null, null],
        ['audit', 0, true, 'https://example.com/b', null],
        ['apply', -1, false, null, null],
        ['audit', -1, false, 'https://example.com/a', 'blog'],
        ['purchase', 10, false, null, null],
        ['adjustment', 5, false, null, null],
      ],
    );
    t.same(body.history.map((h: any) => h.id).slice(1, 5), ['aud_2', 'rev_1', 'aud_1', 'pay_alice1']);
    t.match(body.history[0].id, /^adj_/);
    t.ok(
      body.history.every((h: any) => !Number.isNaN(Date.parse(h.createdAt))),
      'ISO timestamps',
    );
    t.equal(
      body.history.reduce((s: number, h: any) => s + h.delta, 0),
      body.remaining,
      'sum of deltas == remaining',
    );
    t.same(
      [body.page, body.limit, body.total, body.hasMore, body.apiVersion],
      [1, 50, 6, false, 'v1.4'],
      'defaults page 1, limit 50',
    );
  });

  t.test('paging: page and limit, hasMore, clamping above 100, 400 on bad values', async (t) => {
    const p1 = (await get('/api/v1/credits/usage?page=1&limit=4', alice.apiKey)).json();
    const p2 = (await get('/api/v1/credits/usage?page=2&limit=4', alice.apiKey)).json();
    const p3 = (await get('/api/v1/credits/usage?page=3&limit=4', alice.apiKey)).json();
    t.same([p1.history.length, p1.hasMore, p1.total, p1.page, p1.limit], [4, true, 6, 1, 4]);
    t.same([p2.history.length, p2.hasMore], [2, false]);
    t.same([p3.history.length, p3.hasMore, p3.total], [0, false, 6], 'a page past the end is empty, not an error');
    const all = (await get('/api/v1/credits/usage', alice.apiKey)).json();
    t.same([...p1.history, ...p2.history], all.history, 'pages follow the same order');
    const clamped = (await get('/api/v1/credits/usage?limit=500', alice.apiKey)).json();
    t.equal(clamped.limit, 100, 'a limit above 100 is clamped');
    for (const query of [
      'page=0',
      'page=-1',
      'page=abc',
      'page=1.5',
      'limit=0',
      'limit=-5',
      'limit=ten',
      'page=1000001',
    ]) {
      const res = await get(`/api/v1/credits/usage?${query}`, alice.apiKey);
      t.equal(res.statusCode, 400, query);
      t.equal(res.json().error.code, 'invalid_request', query);
      t.match(res.json().error.message, /^Invalid querystring field (page|limit): /, query);
    }
  });

  t.test('a key only ever sees its own account', async (t) => {
    const me = (await get('/api/v1/me', bob.apiKey)).json();
    t.equal(me.userId, bob.accountId);
    t.equal(me.auditCredits, 2);
    t.equal(me.apiKey.webhookSecret, bob.webhookSecret);
    t.not(bob.webhookSecret, alice.webhookSecret, 'one secret per account');
    const usage = (await get('/api/v1/credits/usage', bob.apiKey)).json();
    t.same(
      usage.history.map((h: any) => h.id),
      ['aud_bob', 'pay_bob1'],
    );
    const aliceUsage = (await get('/api/v1/credits/usage?limit=100', alice.apiKey)).body;
    t.notMatch(aliceUsage, /pay_bob|aud_bob|bob\.example|bob@|secret-project/, "nothing of Bob's in Alice's answers");
    // Query parameters naming another account are ignored: the account comes from the key only.
    const sneaky = (
      await get(`/api/v1/credits/usage?accountId=${alice.accountId}&userId=${alice.accountId}`, bob.apiKey)
    ).json();
    t.same(
      sneaky.history.map((h: any) => h.id),
      ['aud_bob', 'pay_bob1'],
    );
  });

  t.test('unlimited accounts: never charged, used 0, unlimited true', async (t) => {
    const admin = await createAccount(f.pool, { email: 'ops@example.com', unlimited: true });
    await charge(f.pool, admin.accountId, 'audit', 'aud_free');
    await f.ledgerAt(admin.accountId, 2);
    const body = (await get('/api/v1/credits/usage', admin.apiKey)).json();
    t.same([body.remaining, body.used, body.unlimited, body.history], [0, 0, true, []]);
  });

  t.test('a new account reads zero before and after the projection catches up', async (t) => {
    const carol = await createAccount(f.pool, { email: 'carol@example.com' });
    const key = await createKey(f.pool, { accountId: carol.accountId, scopes: ['audits:read'] });
    const body = (await get('/api/v1/credits/usage', key.apiKey)).json();
    t.same([body.remaining, body.used, body.total, body.history], [0, 0, 0, []]);
  });
});

t.test('GET /me right after a purchase shows the credits, while the ledger projection still lags', async (t) => {
  const f = await apiFixture(t);
  const carol = await createAccount(f.pool, { email: 'carol@example.com', credits: 5 });
  await f.ledgerAt(carol.accountId, 1);
  // Hold the projection's row: the purchase below cannot be folded until the lock goes.
  const holder = await f.pool.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM ledger_accounts WHERE account_id = $1 FOR UPDATE', [carol.accountId]);
  try {
    await purchaseCredits(f.pool, { accountId: carol.accountId, credits: 10, paymentId: 'pay_carol1' });
    const lagging = (
      await f.pool.query('SELECT remaining FROM ledger_accounts WHERE account_id = $1', [carol.accountId])
    ).rows[0].remaining;
    t.equal(lagging, 5, 'the projection has not folded the purchase yet');
    const me = await f.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(carol.apiKey) });
    t.equal(me.json().auditCredits, 15, 'the purchase is there at once');
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
  await f.ledgerAt(carol.accountId, 2);
  const me = await f.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(carol.apiKey) });
  t.equal(me.json().auditCredits, 15, 'and from the projection once it caught up');
});
