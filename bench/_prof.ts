// ad-hoc: profile the API process under GET or POST load
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import '/work/main/events/catalogue.ts';
import { createLogger } from '/work/main/infra/logger.ts';
import { createAccount } from '/work/main/services/admin/operations.ts';
import { openBenchStack } from '/work/main/bench/stack.ts';

const log = createLogger('prof', 'warn');
const mode = process.argv[2] ?? 'get';
const prof = process.argv[3] === 'prof';
const stack = await openBenchStack(log, { kafka: false });
const { url, pool } = await stack.database();
const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url, ROLES: 'api', PORT: '0', LOG_LEVEL: 'error',
  RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_READS_PER_MINUTE: '1000000', ALLOW_PRIVATE_ADDRESSES: '1' };
const args = ['--import', 'tsx', ...(prof ? ['--cpu-prof', '--cpu-prof-dir=/work/scratch/prof/out'] : []), 'services/main.ts'];
const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'], cwd: '/work/main' });
let out = '';
child.stdout!.on('data', (d) => (out += d));
while (!/listening on (http:\/\/\S+)/.test(out)) await new Promise((r) => setTimeout(r, 50));
const base = /listening on (http:\/\/\S+)/.exec(out)![1]!;
const CONTENT = 'City bicycles need light frames, hub gears and good lights for daily riding. '.repeat(10);
if (mode === 'get') {
  const reader = await createAccount(pool, { email: 'reader@example.com', credits: 10 });
  const r = await fetch(`${base}/api/v1/audits`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.apiKey}` }, body: JSON.stringify({ content: CONTENT, keyword: 'city bicycle' }) });
  const job = ((await r.json()) as { id: string }).id;
  for (let i = 0; i < 3; i++) {
    const res = await autocannon({ url: `${base}/api/v1/audits/${job}`, connections: 50, duration: 6, headers: { authorization: `Bearer ${reader.apiKey}` } });
    console.log('GET', (res['2xx'] / res.duration).toFixed(0), 'req/s non2xx', res.non2xx, 'p50', res.latency.p50);
  }
} else {
  const keys: string[] = [];
  const N = Number(process.argv[4] ?? 600);
  for (let i = 0; i < N; i++) keys.push((await createAccount(pool, { email: `b${i}@example.com`, credits: 10 })).apiKey);
  let i = 0;
  const res = await autocannon({ url: `${base}/api/v1/audits`, connections: 50, amount: keys.length * 3, requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[Math.floor(i++ / 3) % keys.length]}` }, body: JSON.stringify({ content: CONTENT, keyword: 'city bicycle' }) }) }] });
  console.log('POST', (res['2xx'] / res.duration).toFixed(0), 'req/s non2xx', res.non2xx, 'p50', res.latency.p50);
}
child.kill('SIGTERM'); await once(child, 'exit');
await stack.stop();
process.exit(0);
