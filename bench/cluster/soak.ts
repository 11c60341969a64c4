/**
 * `npm run soak -- --cluster [--audits N] [--seed S] [--rounds R] [--wait-minutes M]`: N audits
 * (default 1,000; single ones, some shared, some with a webhook, and 3-URL batches) across 50
 * accounts, on a three-broker Kafka cluster and a durable PostgreSQL, two processes of every role
 * group, while a seeded nemesis kills brokers (the events partition's leader first), stops
 * PostgreSQL the immediate way, SIGSTOPs a worker past its lease and cuts one worker process off
 * the brokers and PostgreSQL. Every 4th single audit, once completed, gets an apply generation of
 * some of its recommendations (generations.ts). Afterwards the checker reads the whole history (checker.ts); the
 * figures are printed as JSON and the exit code says whether every promise held.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sleep } from '../../core/sleep.ts';
import { eventsTopic } from '../../infra/kafka/client.ts';
import { freePorts } from '../../infra/local/freePort.ts';
import { startKafkaCluster } from '../../infra/local/kafkaCluster.ts';
import { createLogger } from '../../infra/logger.ts';
import { migrate } from '../../infra/postgres/migrate.ts';
import { createPool } from '../../infra/postgres/pool.ts';
import { createAccount } from '../../services/admin/operations.ts';
import { serviceMigrations } from '../../services/migrations.ts';
import { checkHistory } from './checker.ts';
import { crashablePostgres } from './crashablePostgres.ts';
import { readWholeTopic, reclaimedTasks, storeHistory } from './history.ts';
import { faultKinds } from './faults.ts';
import { planFaults, runNemesis } from './nemesis.ts';
import { startServiceProcesses } from './processes.ts';
import { startProxy } from './proxy.ts';
import { startSites } from './sites.ts';
import { startGenerations } from './generations.ts';
import { submitAll, waitForLagZero, waitForTerminal } from './workload.ts';
import { registerService } from '../../services/registration.ts';

registerService();

const argOf = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const intArg = (name: string, fallback: number): number => {
  const v = Number(argOf(name, String(fallback)));
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
};
const AUDITS = intArg('audits', 1000);
const ACCOUNTS = 50;
const SEED = argOf('seed', randomBytes(4).toString('hex'));
const ROUNDS = intArg('rounds', 3);
const LEASE_SECONDS = 10;
const WAIT_MINUTES = intArg('wait-minutes', 30);

const log = createLogger('soak', 'warn');
const say = (s: string) => process.stderr.write(`soak ${new Date().toISOString().slice(11, 19)}: ${s}\n`);
const cleanups: (() => Promise<unknown>)[] = [];
const cleanup = async () => {
  for (const c of cleanups.reverse()) await c().catch((e: Error) => say(`cleanup: ${e.message}`));
};
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  const ok = await run();
  await cleanup();
  process.exit(ok ? 0 : 1);
} catch (e) {
  say(`failed: ${(e as Error).stack}`);
  await cleanup();
  process.exit(2);
}

async function run(): Promise<boolean> {
  const started = Date.now();
  say(`seed ${SEED}, ${AUDITS} audits, ${ACCOUNTS} accounts, ${ROUNDS} rounds of faults`);
  const dir = await mkdtemp(join(tmpdir(), 'audit-soak-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const postgres = await crashablePostgres(join(dir, 'pg'), log);
  cleanups.push(() => postgres.stop());
  const proxyPorts = await freePorts(4);
  const cluster = await startKafkaCluster({ log, proxyPorts: proxyPorts.slice(0, 3) });
  cleanups.push(() => cluster.stop());
  const proxies = [
    ...(await Promise.all(cluster.nodes.map((n, i) => startProxy(proxyPorts[i]!, n.proxiedPort!)))),
    await startProxy(proxyPorts[3]!, Number(new URL(postgres.url).port)),
  ];
  cleanups.push(() => Promise.all(proxies.map((p) => p.close())));

  const url = new URL(postgres.url);
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE soak');
  await admin.end();
  url.pathname = '/soak';
  const pool = createPool(url.toString(), 10);
  pool.on('error', () => undefined); // PostgreSQL is stopped under it on purpose
  cleanups.push(() => pool.end());
  await migrate(pool, serviceMigrations);
  const proxiedUrl = new URL(url);
  proxiedUrl.port = String(proxyPorts[3]);

  const sites = await startSites();
  cleanups.push(() => sites.close());
  const [apiA, apiB] = (await freePorts(2)) as [number, number];
  const prefix = `soak${randomBytes(3).toString('hex')}`;
  const env = (direct: boolean, port?: number): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: direct ? url.toString() : proxiedUrl.toString(),
    KAFKA_BROKERS: direct
      ? cluster.brokers
      : proxyPorts
          .slice(0, 3)
          .map((p) => `127.0.0.1:${p}`)
          .join(','),
    KAFKA_TOPIC_PREFIX: prefix,
    NODE_EXTRA_CA_CERTS: sites.caPath,
    ...(port ? { PORT: String(port) } : {}),
    LOG_LEVEL: 'error',
    ALLOW_PRIVATE_ADDRESSES: '1',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_READS_PER_MINUTE: '1000000',
    RATE_LIMIT_APPLY_PER_MINUTE: '1000000',
    PIPELINE_LEASE_SECONDS: String(LEASE_SECONDS),
    SERP_PROVIDER: 'none',
  });
  // Two of each group; the b worker reaches the brokers and PostgreSQL through the cuttable proxies.
  const service = startServiceProcesses(
    [
      { name: 'api-a', roles: 'api', env: env(true, apiA) },
      { name: 'api-b', roles: 'api', env: env(true, apiB) },
      { name: 'relay-a', roles: 'relay,projections', env: env(true) },
      { name: 'relay-b', roles: 'relay,projections', env: env(true) },
      { name: 'worker-a', roles: 'crawler,auditor,apply', env: env(true) },
      { name: 'worker-b', roles: 'crawler,auditor,apply', env: env(false) },
      { name: 'async-a', roles: 'webhooks,bulk,scheduler', env: env(true) },
      { name: 'async-b', roles: 'webhooks,bulk,scheduler', env: env(true) },
    ],
    say,
  );
  cleanups.push(() => service.stop());
  for (const until = Date.now() + 300_000; !service.processes.every((p) => p.up()); await sleep(500))
    if (Date.now() > until) throw new Error('the service processes did not all start in 5 minutes');
  say(`service up after ${((Date.now() - started) / 1000).toFixed(0)} s`);

  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++)
    accounts.push(
      // An audit's credit, a quarter of one for its apply generation, and a margin.
      await createAccount(pool, { email: `soak${i}@example.com`, credits: Math.ceil((AUDITS * 1.25) / ACCOUNTS) + 5 }),
    );

  const kinds = faultKinds({
    cluster,
    topic: eventsTopic(prefix),
    postgres,
    service,
    proxies,
    leaseSeconds: LEASE_SECONDS,
  });
  const plan = planFaults(SEED, kinds, ROUNDS, [4_000, 12_000]);
  say(`fault plan: ${plan.map((f) => `${f.kind}@+${f.gapMs}ms/${f.holdMs}ms`).join(', ')}`);
  const nemesis = runNemesis(plan, kinds, say);

  const apis = [apiA, apiB].map((p) => `http://127.0.0.1:${p}`);
  const generations = startGenerations({ apis, deadline: Date.now() + WAIT_MINUTES * 60_000, say });
  const work = await submitAll({ apis, accounts, audits: AUDITS, sites, say, onAccepted: generations.offer });
  say(`${work.acknowledged.length} jobs acknowledged (${work.retries} retries); waiting for them to end`);
  const gen = await generations.done();
  const accountIds = accounts.map((a) => a.accountId);
  await waitForTerminal(pool, accountIds, WAIT_MINUTES, say);
  // At least one round, so that every kind of fault happened, whatever N.
  while (nemesis.count() < kinds.length && !nemesis.finished()) await sleep(1000);
  nemesis.stop();
  const faults = await nemesis.done;
  await waitForTerminal(pool, accountIds, 10, say);
  const lags = await waitForLagZero(apis[0]!, pool, accountIds, say);

  const store = await storeHistory(pool, accountIds);
  const topic = await readWholeTopic(cluster.brokers.split(','), eventsTopic(prefix), store.stored.length);
  const verdict = checkHistory({
    ...store,
    accepted: [...new Set([...store.accepted, ...work.acknowledged])],
    generations: { ...store.generations, accepted: [...new Set([...store.generations.accepted, ...gen.accepted])] },
    topic,
    webhookPosts: sites.webhookPosts,
    maxWebhookAttempts: 3,
    lags,
    faults,
    submissions: [...work.submissions, ...gen.submissions],
  });
  const figures = {
    seed: SEED,
    audits: AUDITS,
    accounts: ACCOUNTS,
    acknowledged: work.acknowledged.length,
    submissionRetries: work.retries,
    retriedAnswers: work.answers,
    generationsOffered: gen.offered,
    generationsSkipped: gen.skipped,
    generationRetriedAnswers: gen.answers,
    ...verdict.figures,
    tasksClaimedMoreThanOnce: await reclaimedTasks(pool),
    processExits: service.exits,
    faults,
    minutes: Number(((Date.now() - started) / 60_000).toFixed(1)),
  };
  console.log(JSON.stringify(figures, null, 2));
  for (const v of verdict.violations.slice(0, 50)) console.log(`VIOLATION ${v}`);
  const ok = verdict.violations.length === 0;
  console.log(ok ? 'CLUSTER SOAK PASSED' : 'CLUSTER SOAK FAILED');
  return ok;
}
