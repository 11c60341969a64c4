import type { Queryable } from '../postgres/pool.ts';

export interface RateLimitHit {
  /** The window's size in requests. */
  limit: number;
  /** Requests left in the current window after this one (never below 0). */
  remaining: number;
  /** Unix seconds at which the current window ends and the count starts again. */
  resetAt: number;
  /** Whether this request went over the limit. */
  exceeded: boolean;
  /** Whole seconds until resetAt (at least 1), for Retry-After. */
  retryAfter: number;
}

export interface HitRequest {
  /** Whose budget: the API key's id. */
  keyId: string;
  /** Which window: `submission`, `share`, `apply`, `bulkCancel`, `read`. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/** How often (1 in N hits) a hit also deletes the rows of windows that ended over an hour ago. */
const CLEANUP_EVERY = 200;

/**
 * Counts one request in a fixed window. One statement, so it is atomic under any number of API
 * processes: the upsert of the (key, bucket, window start) row returns the new count. The window is
 * aligned on the database's clock, so processes with drifting clocks still agree on it.
 */
export async function hitRateLimit(db: Queryable, req: HitRequest): Promise<RateLimitHit> {
  const r = await db.query<{ hits: number; start: string; now: string }>(
    `INSERT INTO rate_limit_counters AS c (key_id, bucket, window_start, hits)
     VALUES ($1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), 1)
     ON CONFLICT (key_id, bucket, window_start) DO UPDATE SET hits = c.hits + 1
     RETURNING hits, extract(epoch FROM window_start)::bigint::text AS start, extract(epoch FROM now())::text AS now`,
    [req.keyId, req.bucket, req.windowSeconds],
  );
  const row = r.rows[0]!;
  if (Math.random() * CLEANUP_EVERY < 1) {
    await db
      .query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`)
      .catch(() => undefined);
  }
  const resetAt = Number(row.start) + req.windowSeconds;
  return {
    limit: req.limit,
    remaining: Math.max(0, req.limit - row.hits),
    resetAt,
    exceeded: row.hits > req.limit,
    retryAfter: Math.max(1, Math.ceil(resetAt - Number(row.now))),
  };
}

/** The window as it stands for a key, without counting a request (a refused one: 403). */
export async function peekRateLimit(
  db: Queryable,
  req: HitRequest,
): Promise<Pick<RateLimitHit, 'limit' | 'remaining' | 'resetAt'>> {
  const r = await db.query<{ hits: number | null; start: string }>(
    `SELECT (SELECT hits FROM rate_limit_counters WHERE key_id = $1 AND bucket = $2 AND window_start = w.start) AS hits,
            extract(epoch FROM w.start)::bigint::text AS start
       FROM (SELECT to_timestamp(floor(extract(epoch FROM now()) / $3) * $3) AS start) w`,
    [req.keyId, req.bucket, req.windowSeconds],
  );
  const row = r.rows[0]!;
  return {
    limit: req.limit,
    remaining: Math.max(0, req.limit - (row.hits ?? 0)),
    resetAt: Number(row.start) + req.windowSeconds,
  };
}

/** A window no request has counted in yet, ending where the current one ends (a 401: no key). */
export const freshWindow = (
  req: Omit<HitRequest, 'keyId'>,
  nowMs = Date.now(),
): Pick<RateLimitHit, 'limit' | 'remaining' | 'resetAt'> => ({
  limit: req.limit,
  remaining: req.limit,
  resetAt: (Math.floor(nowMs / 1000 / req.windowSeconds) + 1) * req.windowSeconds,
});
