import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { admin, childEnv } from '../../helpers/adminCli.ts';

const api = async (base: string, path: string, key?: string) => {
  const res = await fetch(`${base}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: (await res.json()) as any };
};

t.test('operator CLI on the embedded PostgreSQL, with and without the service running (DATA_DIR)', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'admin-e2e-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env = childEnv({ DATA_DIR: dataDir });

  // The service makes the state (the CLI never creates a database), then stops.
  const first = await startService(t, env);
  t.equal(await first.stop(), 0, 'the first run of the service stops cleanly');

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
