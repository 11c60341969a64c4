import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from '../../core/sleep.ts';
import { startPostgres, type LocalPostgres } from '../../infra/local/postgres.ts';
import type { Logger } from '../../infra/logger.ts';

/**
 * A durable PostgreSQL the soak can stop the hard way and start again on the same data and port:
 * SIGQUIT to the postmaster is PostgreSQL's "immediate" shutdown (no checkpoint, crash recovery at
 * the next start), the closest to a crash that still stops every backend.
 */
export interface CrashablePostgres {
  url: string;
  crash(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function crashablePostgres(dataDir: string, log: Logger): Promise<CrashablePostgres> {
  let server: LocalPostgres | undefined = await startPostgres({ dataDir, persistent: true, log });
  const port = Number(new URL(server.url).port);
  const url = server.url;
  return {
    url,
    async crash() {
      const pid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      process.kill(pid, 'SIGQUIT');
      for (const until = Date.now() + 30_000; Date.now() < until && alive(pid);) await sleep(100);
      await server?.stop(); // disarms its watchdog; the process is gone already
      server = undefined;
    },
    async start() {
      server = await startPostgres({ dataDir, persistent: true, port, log });
    },
    async stop() {
      await server?.stop();
    },
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
