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

/** How often (1 in N flushes) a flush also deletes the rows of windows that ended over an hour ago. */
const CLEANUP_EVERY = 200;
/** Statements in flight at once; hits arriving meanwhile wait and go out together in the next one. */
const MAX_IN_FLIGHT = 2;

export interface RateLimitCounter {
  /** Counts one request in its fixed window and says whether it went over the limit. */
  hit(req: HitRequest): Promise<RateLimitHit>;
}

interface Waiter {
  limit: number;
  resolve(hit: RateLimitHit): void;
  reject(err: unknown): void;
}

interface Group {
  keyId: string;
  bucket: string;
  windowSeconds: number;
  waiters: Waiter[];
}

/**
 * Adds n to each (key, bucket, window) row at once and returns each row's new count, by the
 * ordinal of its group; the window is aligned on the database's clock.
 */
const HIT_SQL = `WITH t AS (SELECT k, b, n, to_timestamp(floor(extract(epoch FROM now()) / w) * w) AS ws, i
                            FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) WITH ORDINALITY AS t(k, b, w, n, i)),
                    up AS (INSERT INTO rate_limit_counters AS c (key_id, bucket, window_start, hits)
                           SELECT k, b, ws, n FROM t
                           ON CONFLICT (key_id, bucket, window_start) DO UPDATE SET hits = c.hits + excluded.hits
                           RETURNING key_id, bucket, window_start, hits)
               SELECT t.i::int AS i, up.hits, extract(epoch FROM up.window_start)::bigint::text AS start, extract(epoch FROM now())::text AS now
                 FROM t JOIN up ON up.key_id = t.k AND up.bucket = t.b AND up.window_start = t.ws`;

interface CountRow {
  /** 1-based index of the group in the statement. */
  i: number;
  hits: number;
  start: string;
  now: string;
}

/** One statement for all the groups: each group's row gets its number of waiters added. */
async function countGroups(db: Queryable, groups: readonly Group[]): Promise<CountRow[]> {
  const r = await db.query<CountRow>({
    name: 'rate_limit_hit',
    text: HIT_SQL,
    values: [
      groups.map((g) => g.keyId),
      groups.map((g) => g.bucket),
      groups.map((g) => g.windowSeconds),
      groups.map((g) => g.waiters.length),
    ],
  });
  return r.rows;
}

/** The n waiters of a row whose count became H take H-n+1 … H, in arrival order. */
function answerGroup(g: Group, row: CountRow): void {
  const resetAt = Number(row.start) + g.windowSeconds;
  const retryAfter = Math.max(1, Math.ceil(resetAt - Number(row.now)));
  const first = row.hits - g.waiters.length + 1;
  g.waiters.forEach((w, j) => {
    const count = first + j;
    w.resolve({
      limit: w.limit,
      remaining: Math.max(0, w.limit - count),
      resetAt,
      exceeded: count > w.limit,
      retryAfter,
    });
  });
}

/** Answers every waiter from the rows; a group the statement returned no row for is refused. */
function answerGroups(groups: readonly Group[], rows: readonly CountRow[]): void {
  const answered = new Set<number>();
  for (const row of rows) {
    answerGroup(groups[row.i - 1]!, row);
    answered.add(row.i - 1);
  }
  groups.forEach((g, i) => {
    if (!answered.has(i))
      g.waiters.forEach((w) => w.reject(new Error(`rate limit: no count returned for ${g.bucket}`)));
  });
}

/**
 * Counts requests in fixed windows, in PostgreSQL so the count is shared by every API process.
 * The hits that arrive while earlier statements are in flight (or in the same turn of the event
 * loop) go out together as ONE statement: a multi-row upsert adding n to each (key, bucket, window)
 * row and returning its new count H. The n requests of that row then take the counts H-n+1 … H in
 * arrival order, exactly as n single upserts in a row would: the row lock orders the statements
 * of all processes, so every count in a window is handed out once, and exactly `limit` requests
 * pass, however many processes count and however the hits fall into statements. An idle process
 * sends a hit at once (no added wait); under load the round trips per request drop towards zero.
 * The window is aligned on the database's clock, so processes with drifting clocks agree on it.
 */
export function createRateLimitCounter(db: Queryable): RateLimitCounter {
  let pending = new Map<string, Group>();
  let inFlight = 0;
  let scheduled = false;
  let flushes = 0;
  const sizes = new Map<string, number>();

  const schedule = () => {
    if (scheduled || inFlight >= MAX_IN_FLIGHT || pending.size === 0) return;
    scheduled = true;
    // The hits of this turn of the event loop go out together.
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };

  const flush = async () => {
    if (inFlight >= MAX_IN_FLIGHT || pending.size === 0) return;
    const groups = [...pending.values()];
    pending = new Map();
    inFlight++;
    try {
      answerGroups(groups, await countGroups(db, groups));
    } catch (err) {
      for (const g of groups) for (const w of g.waiters) w.reject(err);
    } finally {
      inFlight--;
    }
    if (++flushes % CLEANUP_EVERY === 0) {
      db.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`).catch(() => undefined);
    }
    schedule();
  };

  /** Queues the request with the others of its key and bucket, for the next statement. */
  const enqueue = (req: HitRequest, waiter: Waiter) => {
    const id = `${req.keyId}\u0000${req.bucket}`;
    let g = pending.get(id);
    if (!g)
      pending.set(id, (g = { keyId: req.keyId, bucket: req.bucket, windowSeconds: req.windowSeconds, waiters: [] }));
    g.waiters.push(waiter);
    schedule();
  };

  return {
    hit(req) {
      return new Promise<RateLimitHit>((resolve, reject) => {
        // One row per (key, bucket, window) in a statement (an upsert may not touch a row twice),
        // so a bucket has one window size (one config) for the counter's life.
        const size = sizes.get(req.bucket);
        if (size === undefined) sizes.set(req.bucket, req.windowSeconds);
        else if (size !== req.windowSeconds)
          return reject(
            new Error(`rate limit: bucket ${req.bucket} counts in ${size} s windows, not ${req.windowSeconds} s`),
          );
        enqueue(req, { limit: req.limit, resolve, reject });
      });
    },
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
