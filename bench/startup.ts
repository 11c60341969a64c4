import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../infra/local/kafkaJars.ts';
import type { BenchRow } from './report.ts';

/**
 * Start-up of the compiled service and its programs (issue 25): `npm start` on the embedded
 * default until it listens, one operator command against it, and the offline audit of one
 * article, each the median of RUNS whole processes beside the bare `node -e ''` of the same run.
 * The two commands' CPU time (user + system, the process's own) is given beside their wall time:
 * on a loaded machine the wall time counts the waits for a core.
 */
const RUNS = 5;
const ARTICLE = join(repoRoot, 'test/fixtures/engine/strong/en-howto-descale.md');
const BIN = join(repoRoot, 'bin/audit-service.js');

const CPU_AT_EXIT = join(repoRoot, 'bench/cpuAtExit.mjs');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall and CPU time of one whole process, in ms. */
const timeProcess = async (args: string[], env: NodeJS.ProcessEnv, cpuFile: string) => {
  await rm(cpuFile, { force: true });
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, ...args], {
    cwd: repoRoot,
    env: { ...env, BENCH_CPU_FILE: cpuFile },
    stdio: 'ignore',
  });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited with ${run.status}`);
  return { wall, cpu: Number((await readFile(cpuFile, 'utf8')).trim()) };
};

/** The medians of RUNS timings of one command, and rows for its wall and CPU time. */
const rowsOf = (name: string, runs: { wall: number; cpu: number }[], bare: { wall: number; cpu: number }[]) => {
  const ceiling = (what: 'wall' | 'cpu') => ({ name: "bare `node -e ''`", value: median(bare.map((b) => b[what])) });
  return [
    { name, value: median(runs.map((r) => r.wall)), unit: 'ms', ceiling: ceiling('wall'), target: '≤ 1,500 ms' },
    { name: `${name}, CPU (user + sys)`, value: median(runs.map((r) => r.cpu)), unit: 'ms', ceiling: ceiling('cpu') },
  ];
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
    const cpuFile = join(dataDir, 'cpu.txt');
    const bare: { wall: number; cpu: number }[] = [];
    const starts: number[] = [];
    const commands: { wall: number; cpu: number }[] = [];
    const audits: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(await timeProcess(['-e', ''], process.env, cpuFile));
      starts.push(await timeStart(env));
      commands.push(await timeProcess([BIN, 'accounts', 'create', '--email', `bench${i}@example.com`], env, cpuFile));
      audits.push(await timeProcess([BIN, 'audit', ARTICLE, '--keyword', 'descale espresso machine'], env, cpuFile));
    }
    return [
      {
        name: '`npm start` ready (embedded default)',
        value: median(starts),
        unit: 'ms',
        ceiling: { name: "bare `node -e ''`", value: median(bare.map((b) => b.wall)) },
        target: '≤ 5,000 ms',
      },
      ...rowsOf('operator command (`accounts create`)', commands, bare),
      ...rowsOf('offline audit of one article', audits, bare),
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
