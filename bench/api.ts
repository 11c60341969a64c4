/**
 * The API and the pipeline end to end: POST /audits accepted per second and GET /audits/{id} per
 * second under autocannon (50 connections), each beside a bare Fastify route in the same run; the
 * time from submission to `completed` for a 2,000-word page served locally and a 150-word text, on
 * the embedded log and on real Kafka, each beside the engine alone on the same content
 * (bench/pipeline.ts); a 100-URL batch; apply beside the engine.
 *
 * Each measured service runs in a process of its own (as `npm start` would), so the load generator
 * does not share its event loop. Rate limits are lifted for the run: the bench measures the
 * service's own cost, not its limits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once, type EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createLogger } from '../infra/logger.ts';
import { createAccount } from '../services/admin/operations.ts';
import { syntheticPage } from './engine.ts';
import type { BenchRow } from './report.ts';
import { openBenchStack } from './stack.ts';
import { latencyRows, median, POLL_MS } from './pipeline.ts';
import { registerService } from '../services/registration.ts';
import type { Pool } from '../infra/postgres/pool.ts';

const log = createLogger('bench', 'warn');
const CONNECTIONS = 50;
const ACCOUNTS = 1200; // three submissions each: the most an account has in flight
const WARM_ACCOUNTS = 300; // their submissions warm each server up before it is measured
const WARM_SECONDS = 2;
const CLOCK_TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux
// Node flags for every measured service process (not the bare route's), e.g.
// BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p' (Node refuses --cpu-prof in NODE_OPTIONS).
const serviceFlags = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
const CONTENT = 'City bicycles need light frames, hub gears and good lights for daily riding. '.repeat(10);

async function spawnServer(
  script: string,
  env: NodeJS.ProcessEnv,
  flags: string[] = [],
): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', script], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  // Measured by the clock: on a loaded machine timers drift, and a start can take minutes.
  for (const until = Date.now() + 300_000; !/listening on (http:\/\/\S+)/.test(out);) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`${script} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base: /listening on (http:\/\/\S+)/.exec(out)![1]!, child };
}

const stopServer = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
};

/** Counted in a run: 2xx responses per second, over how long the run took. */
interface Rate {
  rate: number;
  seconds: number;
}

/**
 * POSTs: `amount` of them, each key used as often as an account may have audits in flight, or as
 * many as fit in `seconds` (the bare route, which has no accounts).
 */
async function postRate(base: string, keys: string[], run: { amount: number } | { seconds: number }): Promise<Rate> {
  let i = 0;
  // autocannon ends an `amount` run at its next one-second sample, so its own duration is rounded up
  // to whole seconds (a 0.3 s run counted as 1 s); the rate is taken to the last response instead.
  const started = performance.now();
  let last = started;
  const cannon = autocannon({
    url: `${base}/api/v1/audits`,
    connections: CONNECTIONS,
    ...('amount' in run ? { amount: run.amount } : { duration: run.seconds }),
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${keys[Math.floor(i++ / 3) % keys.length]}`,
          },
          body: JSON.stringify({ content: CONTENT, keyword: 'city bicycle' }),
        }),
      },
    ],
  });
  // The promise autocannon returns is also its event emitter (lib/init.js); the types omit it.
  (cannon as unknown as EventEmitter).on('response', () => {
    last = performance.now();
  });
  const result = await cannon;
  if (result.non2xx > 0) log.warn({ non2xx: result.non2xx }, 'some submissions were refused');
  const seconds = (last - started) / 1000;
  return { rate: result['2xx'] / seconds, seconds };
}

async function getRate(base: string, path: string, key: string | null, seconds = 8): Promise<number> {
  const result = await autocannon({
    url: `${base}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return result['2xx'] / result.duration;
}

/** CPU time (user + system, ms) a process has used so far; null where /proc is not there. */
async function cpuMs(pid: number | undefined): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (pid === undefined || stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function createAccounts(pool: Pool, prefix: string, n: number): Promise<string[]> {
  const keys: string[] = [];
  // Ten at a time: one by one, 1,200 durable commits take minutes on a loaded disk.
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: Math.min(10, n - i) }, (_, j) =>
      createAccount(pool, { email: `${prefix}${i + j}@example.com`, credits: 10 }),
    );
    for (const a of await Promise.all(batch)) keys.push(a.apiKey);
  }
  return keys;
}

/**
 * `throughput: false` (`npm run bench -- bulk`) skips the autocannon runs; `pipeline: false`
 * (`-- requests`) runs only them; `bulk: false` (`-- apply`) skips the 100-URL batch.
 */
export async function benchApi({ throughput = true, pipeline = true, bulk = true } = {}): Promise<BenchRow[]> {
  registerService();
  // Kafka only for the pipeline's second run (the bench starts its broker unless KAFKA_BROKERS is given).
  const stack = await openBenchStack(log, { kafka: pipeline });
  const children: ChildProcess[] = [];
  try {
    const rows: BenchRow[] = [];
    const env = (url: string, roles: string): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: url,
      ROLES: roles,
      PORT: '0',
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_READS_PER_MINUTE: '1000000',
      ALLOW_PRIVATE_ADDRESSES: '1',
    });

    // 1. Throughput of the API role alone (nothing runs the audits: they stay queued).
    if (throughput) {
      const { url, pool } = await stack.database();
      process.stderr.write('api bench: creating accounts\n');
      const keys = await createAccounts(pool, 'bench', ACCOUNTS);
      const warmKeys = await createAccounts(pool, 'warm', WARM_ACCOUNTS);
      const api = await spawnServer('services/main.ts', env(url, 'api'), serviceFlags);
      children.push(api.child);
      const bare = await spawnServer('bench/bareServer.ts', { PATH: process.env.PATH });
      children.push(bare.child);
      const bareJob = '/api/v1/audits/job_x';
      process.stderr.write('api bench: POST and GET under load\n');
      // Both servers measured the same way: warmed by the same unmeasured load first (a cold
      // process runs its first thousands of requests several times slower), then the bare route
      // for as long as the service's run took (its `amount` alone would take a fraction of a
      // second, mostly connection set-up and warm-up).
      await postRate(api.base, warmKeys, { amount: WARM_ACCOUNTS * 3 });
      await postRate(bare.base, warmKeys, { amount: WARM_ACCOUNTS * 3 });
      const cpuBefore = await cpuMs(api.child.pid);
      const service = await postRate(api.base, keys, { amount: keys.length * 3 });
      const cpuAfter = await cpuMs(api.child.pid);
      const ceiling = await postRate(bare.base, keys, { seconds: Math.max(1, Math.round(service.seconds)) });
      rows.push({
        name: 'POST /audits accepted (content, 50 connections)',
        value: service.rate,
        unit: 'req/s',
        ceiling: { name: 'bare Fastify route', value: ceiling.rate },
        note:
          cpuBefore === null || cpuAfter === null
            ? `${service.seconds.toFixed(1)} s`
            : `${service.seconds.toFixed(1)} s; the API process's CPU ${((cpuAfter - cpuBefore) / (keys.length * 3)).toFixed(2)} ms per request`,
      });
      // An account of its own for the read: the POST run used up the others' places in flight.
      const reader = await createAccount(pool, { email: 'reader@example.com', credits: 10 });
      const submitted = await fetch(`${api.base}/api/v1/audits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.apiKey}` },
        body: JSON.stringify({ content: CONTENT, keyword: 'city bicycle' }),
      });
      const job = ((await submitted.json()) as { id: string }).id;
      const ownerKey = reader.apiKey;
      await getRate(api.base, `/api/v1/audits/${job}`, ownerKey, WARM_SECONDS);
      await getRate(bare.base, bareJob, null, WARM_SECONDS);
      rows.push({
        name: 'GET /audits/{id} (50 connections)',
        value: await getRate(api.base, `/api/v1/audits/${job}`, ownerKey),
        unit: 'req/s',
        ceiling: { name: 'bare Fastify route', value: await getRate(bare.base, bareJob, null) },
      });
      await stopServer(api.child);
      await stopServer(bare.child);
    }

    if (!pipeline) return rows;
    process.stderr.write('api bench: submission to completion\n');
    // 2. Submission to completion: the whole service on the embedded log, then on real Kafka (the
    // relay and the consumers between the steps), a local 2,000-word page and a 150-word text.
    const html = syntheticPage(2000);
    const web = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
    );
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    const page = { url: `http://127.0.0.1:${(web.address() as AddressInfo).port}/article`, html };
    const allRoles = 'api,projections,crawler,auditor,bulk,scheduler,apply';
    const db2 = await stack.database();
    const account = await createAccount(db2.pool, { email: 'latency@example.com', credits: 300 });
    const full = await spawnServer('services/main.ts', env(db2.url, allRoles), serviceFlags);
    children.push(full.child);
    const svc = { base: full.base, key: account.apiKey, pid: full.child.pid };
    const embedded = await latencyRows(svc, 'embedded log', page);
    rows.push(...embedded.rows);
    if (stack.brokers) {
      process.stderr.write('api bench: submission to completion on Kafka\n');
      const db3 = await stack.database();
      const onKafka = await createAccount(db3.pool, { email: 'kafka@example.com', credits: 100 });
      const kafkaEnv = {
        ...env(db3.url, `${allRoles},relay`),
        KAFKA_BROKERS: stack.brokers,
        KAFKA_TOPIC_PREFIX: `bench${Date.now()}`,
      };
      const viaKafka = await spawnServer('services/main.ts', kafkaEnv, serviceFlags);
      children.push(viaKafka.child);
      rows.push(
        ...(await latencyRows({ base: viaKafka.base, key: onKafka.apiKey, pid: viaKafka.child.pid }, 'Kafka', page))
          .rows,
      );
      await stopServer(viaKafka.child);
    }
    const pageUrl = page.url;
    const singleMs = embedded.rows[0]!.value;

    // 3. A 100-URL batch of the same pages (issue 11): POST /audits/bulk to `completed`, same service.
    if (bulk) {
      process.stderr.write('api bench: a 100-URL batch\n');
      const t0 = performance.now();
      const bulkRes = await fetch(`${full.base}/api/v1/audits/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.apiKey}` },
        body: JSON.stringify({
          urls: Array.from({ length: 100 }, (_, i) => ({
            url: `${pageUrl}?b=${i}`,
            keyword: 'descale espresso machine',
          })),
        }),
      });
      const bulkId = ((await bulkRes.json()) as { id: string }).id;
      for (;;) {
        const r = await fetch(`${full.base}/api/v1/audits/bulk/${bulkId}`, {
          headers: { authorization: `Bearer ${account.apiKey}` },
        });
        const body = (await r.json()) as { status: string; counts: { completed: number } };
        if (!body.counts) throw new Error(`bench batch poll answered ${r.status} ${JSON.stringify(body)}`);
        if (body.status !== 'queued' && body.status !== 'running') {
          if (body.status !== 'completed' || body.counts.completed !== 100)
            throw new Error(`bench batch ended ${body.status} with ${body.counts.completed} completed`);
          break;
        }
        await new Promise((r2) => setTimeout(r2, 100));
      }
      const wall = (performance.now() - t0) / 1000;
      rows.push({
        name: 'bulk: 100-URL batch of local 2,000-word pages, POST to completed',
        value: Math.round(wall * 10) / 10,
        unit: 's',
        target: '< 12 s',
        note: `${(100 / wall).toFixed(2)} entries/s; ${Math.round((wall * 1000) / 100)} ms per entry beside the single audit's ${Math.round(singleMs)} ms`,
      });
    }

    // 4. Apply (issue 13) on the audits of the 2,000-word page: POST apply with every selectable
    // item to a completed revision, and to a completed measurement, beside the single audit.
    process.stderr.write('api bench: apply\n');
    rows.push(...(await benchApply(svc.base, svc.key, embedded.pageJobs.slice(0, 5), embedded.engineOnPageMs)));
    web.close();
    return rows;
  } finally {
    for (const c of children) await stopServer(c).catch(() => undefined);
    await stack.stop();
  }
}

/** Median over the given audits: POST apply (all selectable items) → completed, → measurement completed. */
async function benchApply(base: string, key: string, jobIds: string[], engineMs: number): Promise<BenchRow[]> {
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await r.json()) as any;
  };
  const toText: number[] = [];
  const toMeasure: number[] = [];
  let selected = 0;
  for (const job of jobIds) {
    const selectedIds = (
      (await call('GET', `/audits/${job}/apply/items`)).items as { id: string; selectable: boolean }[]
    )
      .filter((i) => i.selectable)
      .map((i) => i.id);
    selected = selectedIds.length;
    const t0 = performance.now();
    const rev = await call('POST', `/audits/${job}/apply`, { selectedIds });
    if (!rev.revisionId) throw new Error(`bench apply refused: ${JSON.stringify(rev)}`);
    let textAt = 0;
    for (;;) {
      const b = await call('GET', `/audits/${job}/apply/${rev.revisionId}`);
      if (b.status === 'failed') throw new Error(`bench generation failed: ${b.error}`);
      if (b.status === 'completed' && !textAt) textAt = performance.now();
      if (b.status === 'completed' && b.measurement && b.measurement.status !== 'running') {
        if (b.measurement.status !== 'completed') throw new Error(`bench measurement ended ${b.measurement.status}`);
        break;
      }
      // Polled as the audits' rows are, so apply's figure carries the same polling granularity.
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    toText.push(textAt - t0);
    toMeasure.push(performance.now() - t0);
  }
  const ceiling = { name: 'engine alone on the page', value: engineMs };
  const note = `median of ${jobIds.length}, ${selected} items selected`;
  return [
    {
      name: 'apply: POST to completed revision, 2,000-word page, all selectable items',
      value: median(toText),
      unit: 'ms',
      ceiling,
      target: '≤ 1.5 × engine',
      note,
    },
    { name: 'apply: POST to completed measurement, same', value: median(toMeasure), unit: 'ms', ceiling, note },
  ];
}
