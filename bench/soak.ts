/**
 * `npm run soak [-- --audits N] [--kill-every-ms MS] [--wait-minutes M]`: N audits (default
 * 1,000) across 50 accounts on a real Kafka and PostgreSQL, every role in a process of its own,
 * while a random role process is SIGKILLed every few seconds and restarted. At the end it prints,
 * and checks: every job terminal, no credit charged twice, every account's ledger true (the sum of
 * the credit deltas in its stream equals the balance the decider folds, the ledger projection says
 * the same, and `ledger verify` passes), no projection lagging.
 * Exits 1 when any of these fails. `-- --cluster` runs bench/cluster/soak.ts instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accountStreamId, type AccountEvent } from '../events/account/index.ts';
import { loadWholeStream } from '../infra/eventStore/eventStore.ts';
import { freePort } from '../infra/local/freePort.ts';
import { createLogger } from '../infra/logger.ts';
import { ledgerBalance } from '../projections/ledger/queries.ts';
import { createAccount } from '../services/admin/operations.ts';
import { verifyLedger } from '../services/admin/verifyLedger.ts';
import { accountDecider, balanceOf, historyOf } from '../services/domain/account/decider.ts';
import { syntheticPage } from './engine.ts';
import { openBenchStack } from './stack.ts';
import { sleep } from '../core/sleep.ts';
import { registerService } from '../services/registration.ts';

registerService();

// The cluster soak (issue 28) is a script of its own; it exits when done.
if (process.argv.includes('--cluster')) await import('./cluster/soak.ts');

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
};
const AUDITS = arg('audits', 1000);
const ACCOUNTS = 50;
const KILL_EVERY_MS = arg('kill-every-ms', 4000);
const ROLES = ['api', 'relay', 'projections', 'crawler', 'auditor', 'webhooks'] as const;

const log = createLogger('soak', 'warn');
const say = (s: string) => process.stderr.write(`soak: ${s}\n`);
const stack = await openBenchStack(log, { kafka: true });
const { url, pool } = await stack.database();
const web = createServer((req, res) =>
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(syntheticPage(300 + (req.url!.length % 7) * 50)),
);
await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
const site = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
const apiPort = await freePort();
const base = `http://127.0.0.1:${apiPort}`;
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: url,
  KAFKA_BROKERS: stack.brokers,
  KAFKA_TOPIC_PREFIX: `soak${randomBytes(3).toString('hex')}`,
  PORT: String(apiPort),
  LOG_LEVEL: 'error',
  ALLOW_PRIVATE_ADDRESSES: '1',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_READS_PER_MINUTE: '1000000',
  PIPELINE_LEASE_SECONDS: '10',
  SERP_PROVIDER: 'none',
};

// One process per role, restarted whenever it ends (killed here, or failed at start) until the end.
const procs = new Map<string, ChildProcess>();
// Roles whose current process has finished starting ("audit service listening/running"): only
// those are killed. On a loaded machine a start takes longer than the kill interval, and killing
// processes that never got up would test nothing but start-up.
const up = new Set<string>();
const kills: Record<string, number> = {};
let stopping = false;
const start = (role: string) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: { ...env, ROLES: role },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  procs.set(role, child);
  up.delete(role);
  child.stdout!.on('data', (d: Buffer) => {
    if (procs.get(role) === child && /audit service (listening|running)/.test(String(d))) up.add(role);
  });
  child.once('exit', () => {
    if (procs.get(role) === child) up.delete(role);
  });
  child.once('exit', () => {
    if (!stopping)
      setTimeout(() => {
        if (!stopping) start(role);
      }, 500);
  });
};
for (const role of ROLES) start(role);
const stopAll = async () => {
  stopping = true;
  for (const child of procs.values()) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
};

const accounts: Awaited<ReturnType<typeof createAccount>>[] = [];
for (let i = 0; i < ACCOUNTS; i++)
  accounts.push(
    await createAccount(pool, { email: `soak${i}@example.com`, credits: Math.ceil(AUDITS / ACCOUNTS) + 2 }),
  );
for (;;) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    /* not up yet */
  }
  await sleep(200);
}

let killing = true;
const killer = (async () => {
  while (killing) {
    await sleep(KILL_EVERY_MS * (0.5 + Math.random()));
    if (!killing) break;
    const running = ROLES.filter((r) => up.has(r));
    if (running.length === 0) continue;
    const role = running[Math.floor(Math.random() * running.length)]!;
    // The exit handler restarts it.
    if (procs.get(role)!.kill('SIGKILL')) kills[role] = (kills[role] ?? 0) + 1;
  }
})();

// Each account submits its share, three at a time at most (the spec's concurrency limit); the same
// Idempotency-Key on every retry, so an answer lost in a kill never makes a second audit.
const started = Date.now();
const jobs = new Set<string>();
let retries = 0;
const submit = async (i: number): Promise<void> => {
  const account = accounts[i % ACCOUNTS]!;
  for (;;) {
    try {
      const res = await fetch(`${base}/api/v1/audits`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${account.apiKey}`,
          'idempotency-key': `soak-${i}`,
        },
        body: JSON.stringify({ url: `${site}/article/${i}`, keyword: 'descale espresso machine' }),
      });
      const body = (await res.json()) as { id?: string };
      if ((res.status === 202 || res.status === 200) && body.id) {
        jobs.add(body.id);
        return;
      }
    } catch {
      /* the API process was killed: try again */
    }
    retries++;
    await sleep(300);
  }
};
await Promise.all(
  Array.from({ length: ACCOUNTS }, async (_, a) => {
    for (let i = a; i < AUDITS; i += ACCOUNTS) await submit(i);
  }),
);
say(
  `${jobs.size} jobs accepted in ${((Date.now() - started) / 1000).toFixed(0)} s (${retries} retries); waiting for them to end`,
);

const terminal = async () =>
  (
    await pool.query<{ n: number }>(
      `SELECT count(DISTINCT stream_id)::int AS n FROM events WHERE type IN ('AuditCompleted', 'AuditFailed') AND account_id = ANY($1)`,
      [accounts.map((a) => a.accountId)],
    )
  ).rows[0]!.n;
// How long the jobs may take to end after the last is accepted (a loaded machine needs more).
const deadline = Date.now() + arg('wait-minutes', 20) * 60_000;
for (let n = 0, shown = 0; (n = await terminal()) < jobs.size && Date.now() < deadline; await sleep(2000)) {
  if (Date.now() - shown > 30_000) {
    say(`${n}/${jobs.size} terminal after ${((Date.now() - started) / 1000).toFixed(0)} s`);
    shown = Date.now();
  }
}
killing = false;
await killer;

const readModelsCaughtUp = async (): Promise<boolean> => {
  const shown = (
    await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audits WHERE job_id = ANY($1) AND status IN ('completed', 'error')`,
      [[...jobs]],
    )
  ).rows[0]!.n;
  if (shown < (await terminal())) return false;
  for (const a of accounts) {
    const version = (
      await pool.query<{ v: number }>(
        `SELECT coalesce(max(stream_version), 0)::int AS v FROM events WHERE stream_id = $1`,
        [accountStreamId(a.accountId)],
      )
    ).rows[0]!.v;
    if ((await ledgerBalance(pool, a.accountId)).streamVersion < version) return false;
  }
  return true;
};
// Projections: wait (bounded) for every group to reach the end of the log, then report the lags.
let lags: Record<string, number> = {};
for (const until = Date.now() + 300_000; Date.now() < until; await sleep(1000)) {
  try {
    const ready = (await (await fetch(`${base}/readyz`)).json()) as { checks: Record<string, { lag?: number }> };
    lags = Object.fromEntries(
      Object.entries(ready.checks)
        .filter(([, c]) => c.lag !== undefined)
        .map(([g, c]) => [g, c.lag!]),
    );
    // Lag 0 is measured against Kafka: a relay restarting may not have brought the last events
    // there yet. So also wait until the read models show what the store holds.
    if (Object.keys(lags).length > 0 && Object.values(lags).every((l) => l === 0) && (await readModelsCaughtUp()))
      break;
  } catch {
    /* the API is restarting */
  }
}

const outcome = (
  await pool.query<{ status: string; error_code: string | null; n: number }>(
    `SELECT status, error_code, count(*)::int AS n FROM audits WHERE job_id = ANY($1) GROUP BY 1, 2 ORDER BY 1, 2`,
    [[...jobs]],
  )
).rows;
const doubles = (
  await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT payload->>'subjectId' FROM events WHERE type = 'CreditCharged' GROUP BY 1 HAVING count(*) > 1) d`,
  )
).rows[0]!.n;
const chargedAudits = (
  await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'AuditCharged'`)
).rows[0]!.n;
const creditCharges = (
  await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'CreditCharged'`)
).rows[0]!.n;
const ledgerProblems: string[] = [];
for (const a of accounts) {
  const { state, events, version } = await loadWholeStream(pool, accountDecider, accountStreamId(a.accountId));
  const deltas = historyOf(
    events.map((e) => ({ event: { type: e.type, data: e.payload } as AccountEvent, occurredAt: e.occurredAt })),
  ).reduce((s, h) => s + h.delta, 0);
  const balance = balanceOf(state);
  const projected = await ledgerBalance(pool, a.accountId);
  if (deltas !== balance) ledgerProblems.push(`${a.accountId}: sum of deltas ${deltas} != balance ${balance}`);
  if (projected.remaining !== balance || projected.streamVersion !== version) {
    ledgerProblems.push(
      `${a.accountId}: projection ${projected.remaining} at v${projected.streamVersion}, log ${balance} at v${version}`,
    );
  }
  // The auditor's own check (`npm run admin -- ledger verify`): the hash chain and every history entry.
  const verified = await verifyLedger(pool, a.accountId, 10_000);
  if (!verified.ok) ledgerProblems.push(...verified.problems.map((p) => `${a.accountId}: ledger verify: ${p}`));
}
const terminalJobs = outcome
  .filter((o) => o.status === 'completed' || o.status === 'error')
  .reduce((s, o) => s + o.n, 0);
const figures = {
  audits: AUDITS,
  accounts: ACCOUNTS,
  jobsAccepted: jobs.size,
  terminalJobs,
  outcomes: Object.fromEntries(outcome.map((o) => [`${o.status}${o.error_code ? `/${o.error_code}` : ''}`, o.n])),
  kills,
  submissionRetries: retries,
  creditChargedEvents: creditCharges,
  auditChargedEvents: chargedAudits,
  subjectsChargedTwice: doubles,
  ledgerAccountsTrue: ACCOUNTS - new Set(ledgerProblems.map((p) => p.split(':')[0])).size,
  ledgerProblems,
  projectionLag: lags,
  minutes: Number(((Date.now() - started) / 60_000).toFixed(1)),
};
console.log(JSON.stringify(figures, null, 2));
const ok =
  jobs.size === AUDITS &&
  terminalJobs === AUDITS &&
  doubles === 0 &&
  ledgerProblems.length === 0 &&
  Object.keys(lags).length > 0 &&
  Object.values(lags).every((l) => l === 0);
console.log(ok ? 'SOAK PASSED' : 'SOAK FAILED');
await stopAll();
web.close();
await stack.stop();
process.exit(ok ? 0 : 1);
