import { spawn } from 'node:child_process';
import '../events/catalogue.ts';
import { createLogger } from '../infra/logger.ts';
import { createAccount } from '../services/admin/operations.ts';
import { openBenchStack } from './stack.ts';
import { syntheticArticle } from './engine.ts';
import { submitToCompleted } from './pipeline.ts';
const log = createLogger('diag', 'warn');
const stack = await openBenchStack(log, { kafka: false });
const db = await stack.database();
const acc = await createAccount(db.pool, { email: 'd@example.com', credits: 100 });
const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: db.url, ROLES: 'api,projections,crawler,auditor,bulk,scheduler,apply', PORT: '0', LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_READS_PER_MINUTE: '1000000', ALLOW_PRIVATE_ADDRESSES: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
child.stdout!.on('data', (d) => (out += d));
while (!/listening on (http:\/\/\S+)/.test(out)) await new Promise((r) => setTimeout(r, 50));
const base = /listening on (http:\/\/\S+)/.exec(out)![1]!;
const text = syntheticArticle(150);
const r = await submitToCompleted({ base, key: acc.apiKey }, Array.from({ length: 8 }, (_, i) => ({ content: `${text}\n\nNote ${i}.`, keyword: 'descale espresso machine' })));
console.log('ms', r.ms.map(Math.round));
const ev = await db.pool.query(`SELECT stream_id, type, occurred_at, (SELECT min(occurred_at) FROM events e2 WHERE e2.stream_id = e.stream_id) AS t0 FROM events e WHERE stream_id LIKE 'audit-%' ORDER BY stream_id, stream_version`);
const rows = ev.rows as { stream_id: string; type: string; occurred_at: Date; t0: Date }[];
let last = '';
for (const row of rows) {
  if (row.stream_id !== last) { console.log('--', row.stream_id); last = row.stream_id; }
  console.log(`  ${row.type.padEnd(20)} +${row.occurred_at.getTime() - row.t0.getTime()} ms`);
}
const tasks = await db.pool.query(`SELECT kind, subject_id, created_at, done_at, attempts FROM pipeline_tasks ORDER BY created_at`);
for (const t of tasks.rows.slice(0, 6)) console.log(t.kind, t.subject_id, t.created_at.toISOString().slice(11), t.done_at?.toISOString().slice(11), t.attempts);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await stack.stop();
process.exit(0);
