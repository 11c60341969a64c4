import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/db.ts';
import { withTestKey } from '../helpers/testKey.ts';

/** The parts main.ts stops, last started first: one "stopped" line each, in this order. */
const STOP_ORDER = [
  'api',
  'apply',
  'scheduler',
  'bulk',
  'webhooks',
  'crawler and auditor',
  'subscriptions',
  'database',
  'engine threads',
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `npm start` (services/main.ts) in a process group of its own, as a terminal runs it, stopped by
 * SIGINT or SIGTERM sent to the process alone or to the whole group (a terminal's Ctrl-C: the
 * embedded PostgreSQL gets it too and ends every connection at once).
 */
t.test('SIGINT and SIGTERM, to the process or its whole group: a quiet, clean stop', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'audit-stop-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const to of ['process', 'group'] as const) {
      await t.test(`${signal} to the ${to}`, async (t) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
          env: withTestKey(env),
          detached: true, // its own process group, as a shell's job
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
        t.teardown(() => {
          if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
        });
        await eventually(async () => /listening on http/.test(out) || child.exitCode !== null, 90_000, 'listening');
        const base = /listening on (http:\/\/\S+)/.exec(out)![1]!;
        t.equal((await fetch(`${base}/readyz`)).status, 200, 'ready: every role runs');
        await eventually(async () => /request completed/.test(out), 10_000, 'the request logged');
        const pgPid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
        const before = out.length;

        process.kill(to === 'group' ? -child.pid! : child.pid!, signal);
        const [code, killedBy] = await exited;
        t.equal(code, 0, 'exit code 0');
        t.equal(killedBy, null, 'not killed by the signal');
        t.equal(err, '', 'nothing on stderr (no stack trace, no unhandled error)');

        const lines = out.slice(before).trim().split('\n');
        const records = lines.map((l) => {
          try {
            return JSON.parse(l) as { level: number; msg: string; part?: string; signal?: string };
          } catch {
            return { level: 99, msg: l };
          }
        });
        t.same(
          records.filter((r) => r.level > 30),
          [],
          'no warning or error while stopping (each line is a JSON log line at info)',
        );
        t.match(records[0], { msg: 'stopping', signal }, 'first: the signal');
        const stopped = records.filter((r) => r.msg.startsWith('stopped '));
        t.same(
          stopped.map((r) => r.part),
          STOP_ORDER,
          'one "stopped" line per part, in order',
        );
        for (const l of lines) {
          t.notMatch(l, /"stack"|\n\s+at /, 'no stack trace');
          t.ok(l.length < 400, `a short line, no serialised object (${l.length} characters)`);
        }
        await eventually(async () => !alive(pgPid), 30_000, 'the embedded PostgreSQL has stopped');
      });
    }
  }
});
