import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { admin } from '../../helpers/adminCli.ts';

/** The environment of a child: the database chosen, never the suite's Kafka (embedded log). */
const childEnv = (db: { DATABASE_URL?: string; DATA_DIR?: string }): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error', PORT: '0', ...db };
  delete env.KAFKA_BROKERS;
  if (!db.DATABASE_URL) delete env.DATABASE_URL;
  return env;
};

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

  t.test('bad arguments and refused commands: JSON on stderr, non-zero exit, nothing on stdout', async (t) => {
    const cases: [string[], number, string, RegExp][] = [
      [['accounts', 'create'], 2, 'usage', /--email is required/],
      [['accounts', 'create', '--email', 'not-an-email'], 1, 'invalid_request', /is not an e-mail address/],
      [
        ['accounts', 'create', '--email', 'x@y.z', '--credits', '1.5'],
        1,
        'invalid_request',
        /--credits must be a whole number/,
      ],
      [['accounts', 'create', '--email', 'x@y.z', '--bogus'], 2, 'usage', /Unknown option '--bogus'/],
      [
        ['credits', 'purchase', '--account', acct.accountId, '--credits', '0'],
        1,
        'invalid_request',
        /--credits must be from 1/,
      ],
      [['credits', 'purchase', '--account', 'usr_nobody', '--credits', '1'], 1, 'not_found', /account not found/],
      [
        ['credits', 'purchase', '--account', 'bob', '--credits', '1'],
        1,
        'invalid_request',
        /--account must be an id starting with usr_/,
      ],
      [
        ['credits', 'adjust', '--account', acct.accountId, '--delta', '-100', '--reason', 'x', '--actor', 'y'],
        1,
        'invalid_request',
        /below zero/,
      ],
      [
        ['credits', 'adjust', '--account', acct.accountId, '--delta', '2', '--reason', 'x'],
        2,
        'usage',
        /--actor is required/,
      ],
      [
        ['keys', 'create', '--account', acct.accountId, '--scopes', 'audits:delete'],
        1,
        'invalid_request',
        /unknown scope audits:delete/,
      ],
      [['keys', 'revoke', '--key', 'key_nope'], 1, 'not_found', /API key key_nope not found/],
      [['frobnicate'], 2, 'usage', /unknown command "frobnicate"/],
    ];
    for (const [args, code, errorCode, message] of cases) {
      const r = await admin(env, ...args);
      t.equal(r.code, code, `${args.join(' ')}: exit ${code}`);
      t.equal(r.json, null, `${args.join(' ')}: nothing on stdout`);
      t.equal(r.stderr?.error?.code, errorCode, `${args.join(' ')}: code ${errorCode}`);
      t.match(r.stderr?.error?.message, message, `${args.join(' ')}: message`);
    }
  });

  t.test('ledger verify exits non-zero when the projection and the log differ', async (t) => {
    await db.pool.query('UPDATE ledger_accounts SET remaining = remaining + 1 WHERE account_id = $1', [acct.accountId]);
    const r = await admin(env, 'ledger', 'verify', '--account', acct.accountId);
    t.equal(r.code, 1);
    t.match(r.json, { accountId: acct.accountId, balance: 12, projected: 13, ok: false });
    t.match(r.json.problems.join('\n'), /projected remaining 13 != log balance 12/);
  });
  await service.stop();
});

t.test('operator CLI on the embedded PostgreSQL, with and without the service running (DATA_DIR)', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'admin-e2e-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env = childEnv({ DATA_DIR: dataDir });

  // Service not running: the CLI starts the embedded server, writes, and stops it again.
  const created = await admin(env, 'accounts', 'create', '--email', 'embedded@example.com', '--credits', '2');
  t.equal(created.code, 0, `accounts create without the service: ${JSON.stringify(created.stderr)}`);

  const service = await startService(t, env);
  const me = await api(service.base, '/api/v1/me', created.json.apiKey);
  t.equal(me.status, 200, 'npm start sees the account the CLI made');
  // Service running: the CLI joins its server.
  const bought = await admin(env, 'credits', 'purchase', '--account', created.json.accountId, '--credits', '3');
  t.equal(bought.code, 0, `credits purchase while the service runs: ${JSON.stringify(bought.stderr)}`);
  t.equal(bought.json.remaining, 5);
  await eventually(
    async () => (await api(service.base, '/api/v1/credits/usage', created.json.apiKey)).body.remaining === 5,
    30_000,
    'remaining 5',
  );
  const verified = await admin(env, 'ledger', 'verify', '--account', created.json.accountId);
  t.match(verified.json, { balance: 5, projected: 5, ok: true });
  await service.stop();
});
