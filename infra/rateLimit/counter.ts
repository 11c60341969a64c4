import { coalescedReads } from '../postgres/coalescedReads.ts';
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

/** How often (1 in N statements) a statement is followed by deleting the windows that ended over an hour ago. */
const CLEANUP_EVERY = 200;

export interface RateLimitCounter {
  /** Counts one request in its fixed window and says whether it went over the limit. */
  hit(req: HitRequest): Promise<RateLimitHit>;
}

/** The hits of one (key, bucket) in one statement, in arrival order (their indexes in the batch). */
interface Group {
  keyId: string;
  bucket: string;
  windowSeconds: number;
  members: number[];
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

/** The batch's hits grouped by key and bucket (an upsert may not touch a row twice), in arrival order. */
function groupHits(reqs: readonly HitRequest[]): Group[] {
  const groups = new Map<string, Group>();
  reqs.forEach((req, index) => {
    const id = `${req.keyId}\u0000${req.bucket}`;
    let g = groups.get(id);
    if (!g)
      groups.set(id, (g = { keyId: req.keyId, bucket: req.bucket, windowSeconds: req.windowSeconds, members: [] }));
    g.members.push(index);
  });
  return [...groups.values()];
}

/** One statement for all the groups: each group's row gets its number of hits added. */
async function countGroups(db: Queryable, groups: readonly Group[]): Promise<CountRow[]> {
  const r = await db.query<CountRow>({
    name: 'rate_limit_hit',
    text: HIT_SQL,
    values: [
      groups.map((g) => g.keyId),
      groups.map((g) => g.bucket),
      groups.map((g) => g.windowSeconds),
      groups.map((g) => g.members.length),
    ],
  });
  return r.rows;
}

/** The n hits of a row whose count became H take H-n+1 … H, in arrival order. */
function answerGroup(reqs: readonly HitRequest[], g: Group, row: CountRow, answers: (RateLimitHit | Error)[]): void {
  const resetAt = Number(row.start) + g.windowSeconds;
  const retryAfter = Math.max(1, Math.ceil(resetAt - Number(row.now)));
  const first = row.hits - g.members.length + 1;
  g.members.forEach((index, j) => {
    const count = first + j;
    const limit = reqs[index]!.limit;
    answers[index] = { limit, remaining: Math.max(0, limit - count), resetAt, exceeded: count > limit, retryAfter };
  });
}

/** Counts a batch of hits in one statement; a hit whose group got no row back is answered with an error. */
async function countBatch(db: Queryable, reqs: readonly HitRequest[]): Promise<(RateLimitHit | Error)[]> {
  const groups = groupHits(reqs);
  const answers: (RateLimitHit | Error)[] = reqs.map((r) => new Error(`rate limit: no count returned for ${r.bucket}`));
  for (const row of await countGroups(db, groups)) answerGroup(reqs, groups[row.i - 1]!, row, answers);
  return answers;
}

/**
 * Counts requests in fixed windows, in PostgreSQL so the count is shared by every API process.
 * The hits that arrive while earlier statements are in flight (or in the same turn of the event
 * loop) go out together as ONE statement (`coalescedReads`): a multi-row upsert adding n to each
 * (key, bucket, window) row and returning its new count H. The n requests of that row then take
 * the counts H-n+1 … H in arrival order, exactly as n single upserts in a row would: the row lock
 * orders the statements of all processes, so every count in a window is handed out once, and
 * exactly `limit` requests pass, however many processes count and however the hits fall into
 * statements. The window is aligned on the database's clock, so processes with drifting clocks
 * agree on it.
 */
export function createRateLimitCounter(db: Queryable): RateLimitCounter {
  let statements = 0;
  const sizes = new Map<string, number>();
  const count = coalescedReads(async (reqs: HitRequest[]) => {
    const answers = await countBatch(db, reqs);
    if (++statements % CLEANUP_EVERY === 0)
      db.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`).catch(() => undefined);
    return answers;
  });

  return {
    async hit(req) {
      // One row per (key, bucket, window) in a statement, so a bucket has one window size (one
      // config) for the counter's life.
      const size = sizes.get(req.bucket);
      if (size === undefined) sizes.set(req.bucket, req.windowSeconds);
      else if (size !== req.windowSeconds)
        throw new Error(`rate limit: bucket ${req.bucket} counts in ${size} s windows, not ${req.windowSeconds} s`);
      const answer = await count(req);
      if (answer instanceof Error) throw answer;
      return answer;
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
