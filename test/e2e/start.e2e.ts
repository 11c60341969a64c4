import t from 'tap';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eventually, testDatabase } from '../helpers/db.ts';
import { startService } from '../helpers/service.ts';

const get = async (base: string, path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: (await res.json()) as any };
};

t.test(
  'npm start with no configuration: embedded PostgreSQL under DATA_DIR, /healthz within 60 s, a clean stop',
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'audit-start-'));
    t.teardown(() => rm(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'error',
    };
    const started = Date.now();
    const service = await startService(t, env, 60_000);
    t.ok(Date.now() - started < 60_000, `listening after ${Date.now() - started} ms`);
    t.match(
      service.output(),
      /roles: api,relay,projections,crawler,auditor[a-z,]*; log: embedded/,
      'every role, on the embedded log',
    );
    t.same(await get(service.base, '/healthz'), { status: 200, body: { status: 'ok' } });
    const ready = await get(service.base, '/readyz');
    t.equal(ready.status, 200);
    t.equal(ready.body.checks.postgres.ok, true);
    t.notOk('kafka' in ready.body.checks, 'no broker in the embedded default');
    t.ok(existsSync(join(dataDir, 'pg', 'PG_VERSION')), 'the database lives under DATA_DIR');

    const pidFile = join(dataDir, 'pg', 'postmaster.pid');
    const pgPid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    t.equal(await service.stop(), 0, 'SIGTERM stops it with exit code 0');
    await eventually(
      async () => {
        try {
          process.kill(pgPid, 0);
          return false;
        } catch {
          return true;
        }
      },
      20_000,
      'the embedded PostgreSQL to stop with it',
    );

    // A second start reuses the same data.
    const again = await startService(t, env, 60_000);
    t.equal((await get(again.base, '/healthz')).status, 200, 'restarts on the existing data dir');
  },
);

t.test('npm start with KAFKA_BROKERS and DATABASE_URL runs on Kafka; ROLES runs a subset', async (t) => {
  const db = await testDatabase(t);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: `start${randomBytes(3).toString('hex')}`,
  };
  const all = await startService(t, env);
  t.match(all.output(), /log: kafka/);
  const ready = await get(all.base, '/readyz');
  t.equal(ready.body.checks.kafka.ok, true, 'readiness checks the broker');
  await all.stop();

  const apiOnly = await startService(t, { ...env, ROLES: 'api' });
  t.match(apiOnly.output(), /roles: api; log: kafka/);
  t.equal((await get(apiOnly.base, '/healthz')).status, 200);
});

t.test('a bad configuration is refused at start with one message per problem', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: {
      PATH: process.env.PATH,
      PORT: 'eighty',
      ROLES: 'api,nonsense',
      NODE_ENV: 'production',
      ALLOW_PRIVATE_ADDRESSES: '1',
    },
    encoding: 'utf8',
  });
  t.equal(r.status, 1);
  t.match(r.stderr, /PORT must be an integer/);
  t.match(r.stderr, /ROLES has unknown role "nonsense"/);
  t.match(r.stderr, /ALLOW_PRIVATE_ADDRESSES=1 is for local development and tests only/);
});
