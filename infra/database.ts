import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
 * otherwise. Migrations are applied either way.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log: Logger,
  migrations: readonly Migration[],
  poolSize = 20,
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
      const server = await startPostgres({ dataDir, persistent: true, log });
      url = server.url;
      stopServer = () => server.stop();
      log.info({ dataDir }, 'started the embedded PostgreSQL');
    }
  }
  const pool = createPool(url, poolSize);
  pool.on('error', (e) => log.warn({ err: e }, 'idle database connection failed'));
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
