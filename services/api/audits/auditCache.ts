import type { Logger } from '../../../infra/logger.ts';
import { listen, type ListenSession } from '../../../infra/postgres/listener.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { AUDITS_CHANNEL } from '../../../projections/audits/projection.ts';
import type { AuditRow } from '../../../projections/audits/queries.ts';
import type { AuditReader } from './auditReader.ts';

/** How long a cached row is trusted without a word from the database (the fallback bound). */
export const AUDIT_CACHE_TTL_MS = 30_000;
/** More rows than this and the cache starts again (a bound on memory, not a tuning knob). */
const MAX_ENTRIES = 50_000;

export interface AuditCache extends AuditReader {
  close(): Promise<void>;
}

interface Entry {
  row: AuditRow;
  until: number;
}

/**
 * The rows of jobs being polled (GET /audits/{id}: queued, running or error), cached in the API
 * process, in keyCache.ts's way: the audits projection NOTIFYs every row it changes, in the
 * transaction that changes it, and every API process LISTENs and drops that row. The cache is
 * used only while the LISTEN connection is up; entries also expire after AUDIT_CACHE_TTL_MS.
 *
 * - Completed audits are not cached: their answer also carries the share link (its own table),
 *   and a finished audit is read a few times, not polled.
 * - Unknown ids are not cached: a job accepted a moment ago (by any process) is found at once.
 * - A read that a notification for its row overtook is not kept (the notification may be for a
 *   change the read did not see), and a row never replaces a later one of the same audit (stream
 *   version): in one process, a job's status never goes back.
 * - A hit is answered only after a round trip on a LISTEN connection that left after the
 *   request arrived (one for all the hits waiting; `SELECT 1`, no table read; two connections, so
 *   one can be on its way while the other returns): the server sends a notification before the
 *   answer to a later query on that connection, so every change committed
 *   before the request is known by then. A row shown by any read (this process's, another's, the
 *   list) is never followed by an older one from the cache.
 */
export function createAuditCache(pool: Pool, log: Logger, reader: AuditReader, ttlMs = AUDIT_CACHE_TTL_MS): AuditCache {
  const entries = new Map<string, Entry>();
  /** Cache keys by audit id (a job is looked up by job id or audit id). */
  const keysOf = new Map<string, Set<string>>();
  /** The LISTEN connections (two, so that one barrier can be on its way while another returns). */
  const sessions: (ListenSession | null)[] = [];
  const live = () => sessions.filter((x): x is ListenSession => x !== null);
  let listening = false;
  const barrier = createBarrier(live);
  /** Notifications seen; a read keeps its row only if none for that audit came since it started. */
  let seen = 0;
  const notifiedAt = new Map<string, number>();
  let reading = 0;

  const clear = () => {
    entries.clear();
    keysOf.clear();
  };
  const drop = (auditId: string) => {
    for (const k of keysOf.get(auditId) ?? []) entries.delete(k);
    keysOf.delete(auditId);
  };
  // Each connection hears every notification: while one of them listens, none is missed.
  const stops = [0, 1].map((i) =>
    listen(pool, AUDITS_CHANNEL, `audit-service-audit-cache`, log, {
      onListening: (s) => {
        if (!listening) clear();
        sessions[i] = s;
        listening = true;
      },
      onLost: () => {
        sessions[i] = null;
        if (live().length === 0) {
          listening = false;
          clear();
        }
      },
      onNotification: (auditId) => {
        seen++;
        if (reading > 0) notifiedAt.set(auditId, seen);
        drop(auditId);
      },
    }),
  );

  const keep = (key: string, row: AuditRow, since: number, now: number) => {
    if (!listening || row.status === 'completed' || (notifiedAt.get(row.auditId) ?? 0) > since) return;
    const had = entries.get(key);
    if (had && had.row.streamVersion > row.streamVersion) return;
    if (entries.size >= MAX_ENTRIES) clear();
    entries.set(key, { row, until: now + ttlMs });
    let keys = keysOf.get(row.auditId);
    if (!keys) keysOf.set(row.auditId, (keys = new Set()));
    keys.add(key);
  };

  return {
    async find(accountId, id) {
      const key = `${accountId}\u0000${id}`;
      const now = Date.now();
      if (listening && isFresh(entries.get(key), now) && (await barrier.pass())) {
        // The notifications of every commit before this request have been handled meanwhile.
        const hit = entries.get(key);
        if (listening && isFresh(hit, now)) return hit!.row;
      }
      const since = seen;
      reading++;
      try {
        const row = await reader.find(accountId, id);
        if (row) keep(key, row, since, now);
        return row;
      } finally {
        if (--reading === 0) notifiedAt.clear();
      }
    },
    async close() {
      listening = false;
      sessions.length = 0;
      clear();
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}

const isFresh = (e: Entry | undefined, now: number): boolean => e !== undefined && e.until > now;

/**
 * Round trips on the LISTEN connections, shared: whoever arrives while every connection has one in
 * flight waits for the next (one in flight may have left before it arrived). True once one came
 * back; false when no connection is up (the caller reads the table).
 */
function createBarrier(sessions: () => ListenSession[]) {
  let next: { promise: Promise<boolean>; resolve(ok: boolean): void } | null = null;
  const busy = new Set<ListenSession>();
  let scheduled = false;
  const send = () => {
    const batch = next;
    if (!batch) return;
    const all = sessions();
    if (all.length === 0) {
      next = null;
      return batch.resolve(false);
    }
    const s = all.find((x) => !busy.has(x));
    if (!s) return;
    next = null;
    busy.add(s);
    s.query('SELECT 1')
      .then(
        () => batch.resolve(true),
        () => batch.resolve(false),
      )
      .finally(() => {
        busy.delete(s);
        send();
      });
  };
  return {
    pass(): Promise<boolean> {
      if (!next) {
        let resolve!: (ok: boolean) => void;
        const promise = new Promise<boolean>((r) => (resolve = r));
        next = { promise, resolve };
      }
      // The requests of this turn of the event loop go together.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          send();
        });
      }
      return next.promise;
    },
  };
}
