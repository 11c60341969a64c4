import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../infra/local/kafkaJars.ts';
import type { BenchRow } from './report.ts';

/**
 * Start-up of the compiled service and its programs (issue 25): `npm start` on the embedded
 * default until it listens, one operator command against it, and the offline audit of one
 * article, each the median of RUNS whole processes beside the bare `node -e ''` of the same run.
 */
const RUNS = 5;
const ARTICLE = join(repoRoot, 'test/fixtures/engine/strong/en-howto-descale.md');
const BIN = join(repoRoot, 'bin/audit-service.js');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall time of one whole process, in ms. */
const timeProcess = (args: string[], env: NodeJS.ProcessEnv = process.env): number => {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: repoRoot, env, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited with ${run.status}`);
  return performance.now() - started;
};

/** `npm start`'s program until its "listening" line, then a clean stop; ms to the line. */
const timeStart = (env: NodeJS.ProcessEnv): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/start.js'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/listening on/.test(out) && !child.killed) {
        const ms = performance.now() - started;
        child.kill('SIGTERM');
        child.once('exit', () => resolve(ms));
      }
    });
    child.once('exit', (code) => (/listening on/.test(out) ? undefined : reject(new Error(`start exited ${code}`))));
  });

export async function benchStartup(): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-start-'));
  try {
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'error' };
    spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: repoRoot });
    await timeStart(env); // the first start creates the embedded PostgreSQL: set-up, not start-up
    const bare: number[] = [];
    const starts: number[] = [];
    const commands: number[] = [];
    const audits: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(timeProcess(['-e', '']));
      starts.push(await timeStart(env));
      commands.push(timeProcess([BIN, 'accounts', 'create', '--email', `bench${i}@example.com`], env));
      audits.push(timeProcess([BIN, 'audit', ARTICLE, '--keyword', 'descale espresso machine'], env));
    }
    const ceiling = { name: "bare `node -e ''`", value: median(bare) };
    return [
      {
        name: '`npm start` ready (embedded default)',
        value: median(starts),
        unit: 'ms',
        ceiling,
        target: '≤ 5,000 ms',
      },
      {
        name: 'operator command (`accounts create`)',
        value: median(commands),
        unit: 'ms',
        ceiling,
        target: '≤ 1,500 ms',
      },
      { name: 'offline audit of one article', value: median(audits), unit: 'ms', ceiling, target: '≤ 1,500 ms' },
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
