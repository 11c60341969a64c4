import type { Pool, PoolClient } from './pool.ts';
import { pingDatabase } from './pool.ts';

/**
 * Leadership held as a session-level advisory lock on a dedicated connection: exactly one process
 * holds it, and a process that dies (or whose connection drops) loses it with its session.
 */
export interface LeaderLock {
  /** Takes the lock if free; true while this process holds it. */
  tryAcquire(): Promise<boolean>;
  /** After a failure: false (and the lock counted lost) when the session no longer answers. */
  stillHeld(): Promise<boolean>;
  release(): Promise<void>;
}

export function leaderLock(pool: Pool, key: number): LeaderLock {
  let session: PoolClient | undefined;
  let held = false;
  return {
    async tryAcquire() {
      if (held) return true;
      if (!session) {
        session = await pool.connect();
        // A checked-out client has no listener of the pool's: a server gone between two queries
        // would otherwise be an unhandled 'error'. The next query fails, and stillHeld says so.
        session.on('error', () => undefined);
      }
      held = (await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key])).rows[0]!.ok;
      return held;
    },
    async stillHeld() {
      if (!session) return false;
      const alive = await pingDatabase(session).then(
        () => true,
        () => false,
      );
      if (!alive) {
        session.release(true);
        session = undefined;
        held = false;
      }
      return held;
    },
    async release() {
      if (!session) return;
      await session.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
      session.release();
      session = undefined;
      held = false;
    },
  };
}
