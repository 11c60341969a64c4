import t from 'tap';
import { readFileSync } from 'node:fs';
import { createAccount } from '../../services/admin/operations.ts';
import { eventually, testDatabase } from '../helpers/db.ts';
import { servePages } from '../helpers/pageServer.ts';
import { pathologicalInput } from '../helpers/pathologicalInputs.ts';
import { startService } from '../helpers/service.ts';

/**
 * One valid request cannot stop the service (issue 22, finding 0). The costliest page we know for
 * the engine is audited by `npm start` on the embedded default (every role in one process) while
 * /healthz and GET /audits/{id} are called in a loop: the engine runs on the pool's threads, so
 * the event loop answers throughout. The page runs past a short engine time limit and ends as
 * audit_failed; the thread that held it is replaced, and the next audit completes.
 */
const TIME_LIMIT_MS = 1000;

t.test('the service answers while the worst input is audited, and the time limit ends it', async (t) => {
  const db = await testDatabase(t);
  const worst = pathologicalInput('many nested chains', 200_000).content;
  const web = await servePages(t, { '/worst': { body: worst } });
  const account = await createAccount(db.pool, { email: 'e2e-responsive@example.com', credits: 5 });
  const { base } = await startService(t, {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    ALLOW_PRIVATE_ADDRESSES: '1',
    ENGINE_THREADS: '1',
    ENGINE_TIME_LIMIT_MS: String(TIME_LIMIT_MS),
  });
  const headers = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' };
  const submit = async (body: object) => {
    const res = await fetch(`${base}/api/v1/audits`, { method: 'POST', headers, body: JSON.stringify(body) });
    t.equal(res.status, 202);
    return ((await res.json()) as { id: string }).id;
  };
  const timed = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    const body = (await res.json()) as { status?: string; errorCode?: string; errorMessage?: string };
    return { ms: performance.now() - started, ok: res.ok, body };
  };

  const id = await submit({ url: `${web.base}/worst`, keyword: 'descale espresso machine' });
  const latencies: number[] = [];
  let unanswered = 0;
  let job: Awaited<ReturnType<typeof timed>>['body'] = {};
  await eventually(
    async () => {
      const health = await timed('/healthz');
      const read = await timed(`/api/v1/audits/${id}`);
      if (!health.ok || !read.ok) unanswered++;
      latencies.push(health.ms, read.ms);
      job = read.body;
      return job.status === 'completed' || job.status === 'error';
    },
    // The limit is CPU time: on a machine busy with other work the wall time is longer.
    600_000,
    'the worst audit to end',
  );
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95)]!;
  const max = latencies[latencies.length - 1]!;
  t.ok(latencies.length >= 20, `${latencies.length} calls while it ran`);
  t.equal(unanswered, 0, 'every call answered 200');
  t.ok(p95 <= 100, `95 % of the answers within 100 ms (p95 ${p95.toFixed(1)} ms)`);
  t.ok(max <= 1000, `none slower than a second (max ${max.toFixed(1)} ms)`);
  t.match(job, { status: 'error', errorCode: 'audit_failed', errorMessage: /time limit/ });

  const next = await submit({
    content: readFileSync(new URL('../fixtures/engine/strong/en-howto-descale.md', import.meta.url), 'utf8'),
    keyword: 'descale espresso machine',
  });
  await eventually(
    async () => ['completed', 'error'].includes((job = (await timed(`/api/v1/audits/${next}`)).body).status ?? ''),
    300_000,
    'the next audit',
  );
  t.equal(job.status, 'completed', 'the pool replaced the stopped thread and goes on');
});
