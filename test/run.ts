/**
 * THE test command (`npm test`, `npm test -- test/unit/foo.unit.ts --grep x`, `npm test -- test/int`):
 * 1. starts what the selected tests need (PostgreSQL unless DATABASE_URL is set, Kafka unless
 *    KAFKA_BROKERS is set; nothing for unit tests only) while `tsc --noEmit` checks the types and
 *    `tsc -p tsconfig.build.json` brings dist/ up to date;
 * 2. runs tap over the test files with DATABASE_URL and KAFKA_BROKERS in their environment;
 * 3. stops what it started — on success, failure, exception and SIGINT/SIGTERM/SIGHUP;
 * 4. lists the failed tests, then prints as its very last line `N passed, N failed[, N skipped]` and
 *    exits non-zero on any failure.
 *
 * The counts are tap's own: with --output-file tap saves the raw TAP of the run, and at its end the
 * root test writes its totals (`# { total, pass, fail, todo, skip }`) — the numbers behind the
 * reporter's "Asserts:" line: every assertion in every file, plus a failure for each file or
 * subtest that failed without a failing assertion (crash, exit code, timeout). todo is counted
 * as skipped. A failure outside tap (types, stack start-up, tap not finishing) counts as 1 failed,
 * explained on the line before, so a failing run never ends in "0 failed".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createLogger } from '../infra/logger.ts';
import { repoRoot } from '../infra/local/kafkaJars.ts';
import { startLocalStack, type LocalStack } from '../infra/local/stack.ts';
import { TapFailures } from './tapFailures.ts';

const TEST_FILE = /\.(unit|int|e2e)\.ts$/;
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const log = createLogger('test-run', process.env.LOG_LEVEL ?? 'warn');

const KILL_AFTER_MS = 10_000;
const failures = new TapFailures();
let current: ChildProcess | undefined;
let interrupted: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    // Pass it on to the child's whole process group (tap and its test processes), then go on to
    // stop the stack and print the closing line. A test process may not die of SIGTERM (tap's own
    // children do not, while a test is pending), hence SIGKILL for the group after a grace period.
    interrupted ??= signal;
    const child = current;
    if (!child?.pid) return;
    killGroup(child.pid, signal);
    setTimeout(() => killGroup(child.pid!, 'SIGKILL'), KILL_AFTER_MS).unref();
  });
}

/** Signals a process group we created (detached child = group leader); gone already is fine. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nobody left in the group
  }
}

/** Runs a child with our stdio; with `tee`, its stdout also goes to `tee` (and still to ours). */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  tee?: (chunk: Buffer) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    // Its own process group, so that we can stop it with everything it started (see above); a
    // terminal's Ctrl-C therefore reaches only us, and we pass it on.
    const child = spawn(command, args, {
      cwd: repoRoot,
      env,
      stdio: ['inherit', tee ? 'pipe' : 'inherit', 'inherit'],
      detached: true,
    });
    current = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      tee?.(chunk);
    });
    child.once('error', (error) => {
      console.error(`could not run ${command}: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    // 'close', not 'exit': all of its output has been read by then.
    child.once('close', (code, signal) => {
      if (current === child) current = undefined;
      // A test's leftover processes (still in tap's group) must not outlive the stack they use.
      if (child.pid) killGroup(child.pid, 'SIGKILL');
      resolve({ code, signal });
    });
  });
}

async function findTests(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await findTests(path)));
    else if (TEST_FILE.test(entry.name)) out.push(relative(repoRoot, path));
  }
  return out.sort();
}

/** tap's totals from the root test's closing comment in the raw TAP, if the run got that far. */
function tapTotals(tap: string): { pass: number; fail: number; skip: number } | undefined {
  const line = tap
    .split('\n')
    .reverse()
    .find((l) => /^# \{ total: \d+/.test(l));
  if (!line) return undefined;
  const n = (key: string) => Number(new RegExp(`\\b${key}: (\\d+)`).exec(line)?.[1] ?? 0);
  return { pass: n('pass'), fail: n('fail'), skip: n('skip') + n('todo') };
}

async function main(): Promise<{ pass: number; fail: number; skip: number; problems: string[] }> {
  const problems: string[] = [];
  // --skip-typecheck (ours, not tap's): for iterating on one file while a colleague's half-done
  // code breaks the build. The run says so; CI never passes it.
  const skipTypes = process.argv.includes('--skip-typecheck');
  if (skipTypes) console.log('type check SKIPPED (--skip-typecheck)');
  const extra = process.argv.slice(2).filter((a) => a !== '--skip-typecheck');
  // Arguments naming existing files or folders select tests; everything else goes to tap as is.
  const selected = extra.filter((a) => !a.startsWith('-') && existsSync(resolve(repoRoot, a)));
  const options = extra.filter((a) => !selected.includes(a));
  const files = selected.length
    ? (
        await Promise.all(
          selected.map((s) =>
            statSync(resolve(repoRoot, s)).isDirectory()
              ? findTests(resolve(repoRoot, s))
              : [relative(repoRoot, resolve(repoRoot, s))],
          ),
        )
      ).flat()
    : await findTests(join(repoRoot, 'test'));
  const needsServers = files.some((f) => !f.endsWith('.unit.ts'));
  const has = (...names: string[]) => options.some((o) => names.some((n) => o === n || o.startsWith(`${n}=`)));

  let stack: LocalStack | undefined;
  try {
    const stackStart = needsServers ? startLocalStack({ log }).then((s) => (stack = s)) : Promise.resolve(undefined);
    // The type check, then the build of dist/ that the programs the tests start run from (an
    // incremental no-op when it is fresh), so that no test process builds it at the same time.
    const typeCheck = skipTypes
      ? Promise.resolve({ code: 0, signal: null })
      : run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']).then((r) =>
          r.code === 0 ? run(bin('tsc'), ['-p', 'tsconfig.build.json']) : r,
        );
    const [types, started] = await Promise.allSettled([typeCheck, stackStart]);
    if (started.status === 'rejected')
      problems.push(`the local stack did not start: ${(started.reason as Error)?.stack ?? started.reason}`);
    else if (stack)
      for (const s of stack.started)
        console.log(`stack: ${s.name} at ${s.address} (started in ${(s.ms / 1000).toFixed(1)} s)`);
    if (types.status === 'fulfilled' && types.value.code !== 0)
      problems.push('type check or build failed (tsc, errors above)');
    if (interrupted) problems.push(`interrupted by ${interrupted} before the tests ran`);
    if (problems.length) return { pass: 0, fail: 0, skip: 0, problems };
    if (!files.length) {
      console.log('no test files found');
      return { pass: 0, fail: 0, skip: 0, problems };
    }

    const env = {
      ...process.env,
      ...(stack ? { DATABASE_URL: stack.databaseUrl, KAFKA_BROKERS: stack.kafkaBrokers } : {}),
      // The run's own master key (infra/secrets), shared by every test process and the services they
      // start, so no test writes a key file into the checkout's data dir.
      SECRETS_MASTER_KEY: process.env.SECRETS_MASTER_KEY || randomBytes(32).toString('hex'),
    };
    const reporter = reporterOf(options);
    // Raw TAP (tap's default without a TTY, as in CI) is read as it streams by; any other
    // reporter draws on the terminal, and tap saves the raw TAP to a file for us (--output-file
    // would print raw TAP a second time beside the raw TAP reporter, hence the two ways).
    const rawTap = reporter === 'tap' || (reporter === undefined && !process.stdout.isTTY);
    const outDir = await mkdtemp(join(tmpdir(), 'audit-tap-'));
    const outFile = join(outDir, 'run.tap');
    let streamed = '';
    try {
      const tapArgs = [
        // 2 cores: integration tests mostly wait on PostgreSQL and Kafka, so one more job than cores.
        ...(has('--jobs', '-j') ? [] : [`--jobs=${Math.max(2, availableParallelism() + 1)}`]),
        ...(rawTap ? ['--reporter=tap'] : [`--output-file=${outFile}`]),
        ...options,
        ...files,
      ];
      const keepTail = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        failures.write(text);
        streamed = (streamed + text).slice(-65_536); // the totals are at the end
      };
      const tap = await run(bin('tap'), tapArgs, env, rawTap ? keepTail : undefined);
      const saved = rawTap ? '' : await readFile(outFile, 'utf8').catch(() => '');
      if (!rawTap) failures.write(`${saved}\n`);
      const totals = tapTotals(rawTap ? streamed : saved);
      if (!totals) {
        problems.push(
          `tap did not finish (${tap.signal ?? `exit ${tap.code}`}${interrupted ? `, interrupted by ${interrupted}` : ''}); no totals`,
        );
        return { pass: 0, fail: 0, skip: 0, problems };
      }
      if (tap.code !== 0 && totals.fail === 0)
        problems.push(`tap exited ${tap.signal ?? tap.code} with no failed assertion`);
      if (interrupted) problems.push(`interrupted by ${interrupted}`);
      return { ...totals, problems };
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  } finally {
    await stackStop(stack);
  }
}

/** The reporter named by `--reporter=x`, `--reporter x`, `-R x` or `-Rx`, if any. */
function reporterOf(options: string[]): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const o = options[i]!;
    if (o === '--reporter' || o === '-R') return options[i + 1];
    if (o.startsWith('--reporter=')) return o.slice('--reporter='.length);
    if (o.startsWith('-R') && o.length > 2) return o.slice(2);
  }
  return undefined;
}

async function stackStop(stack: LocalStack | undefined): Promise<void> {
  if (!stack) return;
  await stack.stop().catch((error: unknown) => console.error('stopping the stack failed:', error));
}

let result: { pass: number; fail: number; skip: number; problems: string[] };
try {
  result = await main();
} catch (error) {
  result = { pass: 0, fail: 0, skip: 0, problems: [`test runner error: ${(error as Error)?.stack ?? error}`] };
}
const failed = result.fail + (result.fail === 0 && result.problems.length ? 1 : 0);
// Repeated at the end, where a CI log that keeps only its tail still shows them.
for (const line of failures.report()) console.log(line);
for (const p of result.problems) console.log(`FAILED: ${p}`);
console.log(`${result.pass} passed, ${failed} failed${result.skip ? `, ${result.skip} skipped` : ''}`);
process.exit(failed ? 1 : 0);
