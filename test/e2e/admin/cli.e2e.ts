import t from 'tap';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { admin, childEnv } from '../../helpers/adminCli.ts';

const api = async (base: string, path: string, key?: string) => {
  const res = await fetch(`${base}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: (await res.json()) as any };
};

t.test('operator CLI against a running service (DATABASE_URL)', async (t) => {
  const db = await testDatabase(t);
  const env = childEnv({ DATABASE_URL: db.url });
  const service = await startService(t, env);

  const created = await admin(env, 'accounts', 'create', '--email', 'e2e@example.com', '--credits', '5');
  t.equal(created.code, 0, 'accounts create exits 0');
  const acct = created.json;
  t.same(Object.keys(acct).sort(), ['accountId', 'apiKey', 'email', 'keyId', 'scopes', 'webhookSecret']);
  t.match(acct, { email: 'e2e@example.com', scopes: ['audits:read', 'audits:write'] });
  t.match(acct.accountId, /^usr_/);
  t.match(acct.keyId, /^key_/);
  t.match(acct.apiKey, /^ask_[A-Za-z0-9_-]{43}$/);

  const me = await api(service.base, '/api/v1/me', acct.apiKey);
  t.equal(me.status, 200, 'the new key works on GET /me at once');
  t.match(me.body, {
    userId: acct.accountId,
    email: 'e2e@example.com',
    role: 'user',
    apiKey: { id: acct.keyId, webhookSecret: acct.webhookSecret },
    apiVersion: 'v1.4',
  });
  await eventually(
    async () => (await api(service.base, '/api/v1/me', acct.apiKey)).body.auditCredits === 5,
    30_000,
    'auditCredits 5',
  );

  const readKey = await admin(env, 'keys', 'create', '--account', acct.accountId, '--scopes', 'audits:read');
  t.equal(readKey.code, 0);
  t.same(Object.keys(readKey.json).sort(), ['apiKey', 'keyId', 'scopes']);
  t.same(readKey.json.scopes, ['audits:read']);
  const readMe = await api(service.base, '/api/v1/me', readKey.json.apiKey);
  t.equal(readMe.status, 200);
  t.notOk('webhookSecret' in readMe.body.apiKey, 'no webhookSecret for a read-only key');

  const bought = await admin(env, 'credits', 'purchase', '--account', acct.accountId, '--credits', '10');
  t.equal(bought.code, 0);
  t.match(bought.json.paymentId, /^pay_/);
  t.equal(bought.json.remaining, 15);
  const adjusted = await admin(
    env,
    'credits',
    'adjust',
    '--account',
    acct.accountId,
    '--delta',
    '-3',
    '--reason',
    'chargeback',
    '--actor',
    'ops@example.com',
  );
  t.equal(adjusted.code, 0);
  t.equal(adjusted.json.remaining, 12);

  await eventually(
    async () => (await api(service.base, '/api/v1/credits/usage', acct.apiKey)).body.remaining === 12,
    30_000,
    'the ledger to show 12',
  );
  const usage = (await api(service.base, '/api/v1/credits/usage', acct.apiKey)).body;
  t.same(
    usage.history.map((h: any) => [h.type, h.delta]),
    [
      ['adjustment', -3],
      ['purchase', 10],
      ['adjustment', 5],
    ],
  );
  t.equal(usage.history[1].id, bought.json.paymentId);
  t.equal(usage.history[0].id, adjusted.json.adjustmentId);
  t.equal(
    usage.history.reduce((s: number, h: any) => s + h.delta, 0),
    usage.remaining,
    'sum of deltas == remaining',
  );

  const verified = await admin(env, 'ledger', 'verify', '--account', acct.accountId);
  t.equal(verified.code, 0, 'ledger verify exits 0');
  t.match(verified.json, { accountId: acct.accountId, events: 3, balance: 12, projected: 12, ok: true });

  const revoked = await admin(env, 'keys', 'revoke', '--key', acct.keyId);
  t.equal(revoked.code, 0);
  const after = await api(service.base, '/api/v1/me', acct.apiKey);
  t.equal(after.status, 401, 'a revoked key is refused at once');
  t.equal(after.body.error.code, 'invalid_api_key');
  t.equal((await api(service.base, '/api/v1/me', readKey.json.apiKey)).status, 200, 'the other key still works');

  t.test('ledger verify exits non-zero when the projection and the log differ', async (t) => {
    await db.pool.query('UPDATE ledger_accounts SET remaining = remaining + 1 WHERE account_id = $1', [acct.accountId]);
    const r = await admin(env, 'ledger', 'verify', '--account', acct.accountId);
    t.equal(r.code, 1);
    t.match(r.json, { accountId: acct.accountId, balance: 12, projected: 13, ok: false });
    t.match(r.json.problems.join('\n'), /projected remaining 13 != log balance 12/);
  });
  await service.stop();
});
