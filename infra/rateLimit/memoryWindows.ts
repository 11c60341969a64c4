import type { ListenSession } from '../postgres/listener.ts';
import type { HitRequest, RateLimitHit } from './counter.ts';

interface Window {
  keyId: string;
  bucket: string;
  /** Unix seconds, on the database's clock. */
  start: number;
  hits: number;
  /** Counted since the last write to the table. */
  dirty: boolean;
}

/** The windows of the last hour and the database's clock (a row with nulls when there are none). */
const LOAD_SQL = `SELECT c.key_id, c.bucket, extract(epoch FROM c.window_start)::bigint::text AS start, c.hits, n.now
                    FROM (SELECT extract(epoch FROM now())::text AS now) n
                    LEFT JOIN rate_limit_counters c ON c.window_start > now() - interval '1 hour'
                   ORDER BY c.window_start`;
/** Sets each row to this process's count (never lower) and reads the database's clock. */
const WRITE_SQL = `WITH up AS (INSERT INTO rate_limit_counters AS c (key_id, bucket, window_start, hits)
                     SELECT k, b, to_timestamp(st), h FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) AS t(k, b, st, h)
                     ON CONFLICT (key_id, bucket, window_start) DO UPDATE SET hits = GREATEST(c.hits, excluded.hits))
                   SELECT extract(epoch FROM now())::text AS now`;

/** Rows of windows that ended over an hour ago are deleted now and then (as counter.ts does). */
const CLEANUP_EVERY = 60;

/**
 * The counts of one process that holds the rate-limit lock exclusively (limiter.ts): the same
 * fixed windows as the table's (aligned on the database's clock, refused hits counted too), kept
 * in a Map and written to rate_limit_counters now and then. Only the holder of the exclusive lock
 * may use it, so its counts are the only ones.
 */
export type MemoryWindows = ReturnType<typeof createMemoryWindows>;

export function createMemoryWindows() {
  const windows = new Map<string, Window>();
  /** Database clock minus this process's, in seconds (measured at load and at each write). */
  let offset = 0;
  let writes = 0;
  const now = () => Date.now() / 1000 + offset;
  const id = (keyId: string, bucket: string) => `${keyId}\u0000${bucket}`;
  const current = (req: HitRequest, t: number): number => Math.floor(t / req.windowSeconds) * req.windowSeconds;

  const syncClock = (dbNow: string, sentAt: number) => {
    // The database read its clock about halfway through the round trip.
    offset = Number(dbNow) - (sentAt + Date.now()) / 2000;
  };

  return {
    hit(req: HitRequest): RateLimitHit {
      const t = now();
      const start = current(req, t);
      const k = id(req.keyId, req.bucket);
      let w = windows.get(k);
      if (!w || w.start !== start)
        windows.set(k, (w = { keyId: req.keyId, bucket: req.bucket, start, hits: 0, dirty: false }));
      w.hits++;
      w.dirty = true;
      const resetAt = start + req.windowSeconds;
      return {
        limit: req.limit,
        remaining: Math.max(0, req.limit - w.hits),
        resetAt,
        exceeded: w.hits > req.limit,
        retryAfter: Math.max(1, Math.ceil(resetAt - t)),
      };
    },

    peek(req: HitRequest): Pick<RateLimitHit, 'limit' | 'remaining' | 'resetAt'> {
      const start = current(req, now());
      const w = windows.get(id(req.keyId, req.bucket));
      const hits = w && w.start === start ? w.hits : 0;
      return { limit: req.limit, remaining: Math.max(0, req.limit - hits), resetAt: start + req.windowSeconds };
    },

    /** Starts from the table's counts (the windows of the last hour; a hit keeps only its current one). */
    async load(s: ListenSession): Promise<void> {
      windows.clear();
      const sentAt = Date.now();
      const r = await s.query<{ key_id: string; bucket: string; start: string; hits: number; now: string }>(LOAD_SQL);
      syncClock(r.rows[0]!.now, sentAt);
      for (const row of r.rows) {
        if (row.key_id === null) continue;
        windows.set(id(row.key_id, row.bucket), {
          keyId: row.key_id,
          bucket: row.bucket,
          start: Number(row.start),
          hits: row.hits,
          dirty: false,
        });
      }
    },

    /**
     * Writes the counts changed since the last write (`all`: every current one) in one statement;
     * drops windows that ended. GREATEST: a count in the table is never lowered.
     */
    async flush(s: ListenSession, { all = false } = {}): Promise<void> {
      const out = [...windows.values()].filter((w) => all || w.dirty);
      // Nothing new: only the clock is read again, now and then.
      if (out.length === 0 && ++writes % 30 !== 0) return;
      const sent = out.map((w) => w.hits);
      const sentAt = Date.now();
      const r = await s.query<{ now: string }>(WRITE_SQL, [
        out.map((w) => w.keyId),
        out.map((w) => w.bucket),
        out.map((w) => w.start),
        out.map((w) => w.hits),
      ]);
      // A window counted again meanwhile stays to be written.
      out.forEach((w, i) => {
        if (w.hits === sent[i]) w.dirty = false;
      });
      syncClock(r.rows[0]!.now, sentAt);
      // A window is kept until an hour after it started (no bucket counts in longer ones).
      const t = now();
      for (const [k, w] of windows) if (!w.dirty && w.start < t - 3600) windows.delete(k);
      if (++writes % CLEANUP_EVERY === 0)
        await s.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`);
    },

    clear(): void {
      windows.clear();
    },
  };
}
