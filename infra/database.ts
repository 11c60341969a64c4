import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../core/errors.ts';
import type { Config } from './config.ts';
import { startPostgres } from './local/postgres.ts';
import type { Logger } from './logger.ts';
import { migrate, type Migration } from './postgres/migrate.ts';
import { createPool, type Pool } from './postgres/pool.ts';

export interface Database {
  url: string;
  pool: Pool;
  /** Whether this process started the embedded server (and so stops it on close). */
  owner: boolean;
  close(): Promise<void>;
}

const EMBEDDED_PASSWORD = 'postgres';

const noState = (configured: string, dataDir: string) =>
  new AppError(
    'config_error',
    `no service state at ${dataDir} (DATA_DIR=${configured}); this command does not create a database. ` +
      `Point it at the service's: run it with the DATA_DIR that npm start uses (DATA_DIR=/path/to/the/service/.data), ` +
      `or with DATABASE_URL=postgres://... of the service's PostgreSQL`,
  );

/** The port of a server already running on `dataDir`, read from its postmaster.pid (line 4). */
function runningPort(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined; // stale: startPostgres removes it
  }
}

/**
 * The one way to reach the database: DATABASE_URL when given; otherwise the embedded server under
 * DATA_DIR — joined when another process (npm start, the admin CLI) already runs it, started
 * otherwise. Migrations are applied either way. `create: false` (the operator CLI) refuses to
 * create a new embedded database where none is: a tool run from another folder would otherwise
 * work on an empty database of its own instead of the service's.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log: Logger,
  migrations: readonly Migration[],
  poolSize = 20,
  o: { create?: boolean } = {},
): Promise<Database> {
  let url = config.databaseUrl;
  let stopServer: (() => Promise<void>) | undefined;
  if (!url) {
    const dataDir = resolve(config.dataDir, 'pg');
    const port = runningPort(dataDir);
    if (port) {
      url = `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`;
      log.info({ dataDir, port }, 'joining the embedded PostgreSQL already running');
    } else {
      if (o.create === false && !existsSync(join(dataDir, 'PG_VERSION'))) throw noState(config.dataDir, dataDir);
      const server = await startPostgres({ dataDir, persistent: true, log });
      url = server.url;
      stopServer = () => server.stop();
      log.info({ dataDir }, 'started the embedded PostgreSQL');
    }
  }
  const pool = createPool(url, poolSize);
  // The error alone (its code and message): pino would otherwise serialise what pg hangs on it.
  pool.on('error', (e) => {
    const err = e as Error & { code?: string };
    log.warn({ code: err.code, reason: err.message }, 'idle database connection failed');
  });
  await migrate(pool, migrations);
  return {
    url,
    pool,
    owner: stopServer !== undefined,
    async close() {
      await pool.end();
      await stopServer?.();
    },
  };
}
