import type { Logger } from '../logger.ts';
import { listen, type ListenSession } from '../postgres/listener.ts';
import type { Pool } from '../postgres/pool.ts';
import { createRateLimitCounter, peekRateLimit, type HitRequest, type RateLimitHit } from './counter.ts';
import { createMemoryWindows, type MemoryWindows } from './memoryWindows.ts';

/** Session advisory lock of the API processes' counting mode (any constant; see createRateLimiter). */
export const RATE_LIMIT_LOCK_KEY = 726_100_026;
/** A process that starts while another counts in memory asks it, here, to hand its counts over. */
export const RATE_LIMIT_JOIN_CHANNEL = 'rate_limit_join';
/** How often a process counting in memory writes its counts to the table (what a crash can forgive). */
const FLUSH_EVERY_MS = 1_000;
/** How often a process counting in the table checks whether it has become the only one. */
const UPGRADE_EVERY_MS = 5_000;
/** How often a joining process asks again (a request sent before the other listened is not lost). */
const JOIN_ASK_EVERY_MS = 500;

export type CountingMode = 'pending' | 'memory' | 'table';

export interface RateLimiter {
  hit(req: HitRequest): Promise<RateLimitHit>;
  /** The window as it stands, without counting (a refused request: 403). */
  peek(req: HitRequest): Promise<Pick<RateLimitHit, 'limit' | 'remaining' | 'resetAt'>>;
  /** Where this process counts now (tests and logs). */
  mode(): CountingMode;
  /** Resolves once the process counts somewhere (memory or table). */
  settled(): Promise<void>;
  /** Writes the counts of a process counting in memory to the table, and lets the lock go. */
  close(): Promise<void>;
}

/**
 * Rate limits that stay exact however many API processes share the database, counted without a
 * round trip while one process is alone.
 *
 * - **Alone: in memory.** A process counts in memory only while it holds the session advisory
 *   lock RATE_LIMIT_LOCK_KEY exclusively on its LISTEN connection, i.e. while no other API process
 *   is connected to the database. It starts from the table's counts of the current windows and
 *   writes its own back every FLUSH_EVERY_MS (and when it stops or hands over).
 * - **Several: in the table.** Every other process holds the same lock shared and counts in
 *   PostgreSQL (counter.ts: one upsert per batch of concurrent hits, the row lock ordering all
 *   processes), exactly as before.
 * - **Hand-over.** A process that starts while another counts in memory cannot take the lock
 *   shared; it NOTIFYs RATE_LIMIT_JOIN_CHANNEL (again every JOIN_ASK_EVERY_MS) until it can. The
 *   one in memory holds its new hits, writes its counts to the table, takes the lock shared and
 *   lets the exclusive hold go: from then on both count in the table, and no count was given
 *   twice. A process counting in the table tries every UPGRADE_EVERY_MS to take the lock
 *   exclusively (it succeeds only when it is the last one), then reads the counts back and counts
 *   in memory.
 *
 * The bound: exact in every state, across any number of processes. What a crash forgives: a
 * process killed while counting in memory loses the hits since its last write (at most
 * FLUSH_EVERY_MS of them), as a lost UNLOGGED table forgives a window; the same when its LISTEN
 * connection drops (the lock goes with the session: it stops counting in memory at once and
 * counts again only once it holds a lock of either kind). A process whose connection the server
 * has cut but which has not yet noticed could count in memory beside a newcomer: the drop is
 * noticed within the TCP connection's error, not bounded by this code.
 */
/** One process's counting state (createRateLimiter); the steps below move it between modes. */
interface State {
  log: Logger;
  memory: MemoryWindows;
  mode: CountingMode;
  /** The LISTEN connection: its session holds the lock. Null while (re)connecting. */
  session: ListenSession | null;
  closed: boolean;
  /** Hits in flight to the table (drained before switching to memory). */
  tableInFlight: number;
  drained: (() => void) | null;
  waiting: { resolve(): void; reject(e: unknown): void }[];
  /** The LISTEN connection does not keep the process alive; a request waiting for it must. */
  keepAlive: NodeJS.Timeout | undefined;
  chain: Promise<void>;
}

const release = (st: State, fn: (x: State['waiting'][number]) => void) => {
  clearInterval(st.keepAlive);
  st.keepAlive = undefined;
  const w = st.waiting;
  st.waiting = [];
  w.forEach(fn);
};

/** Counting starts in `to`, unless the session it was decided on is gone meanwhile. */
const settle = (st: State, to: 'memory' | 'table', s: ListenSession) => {
  if (st.session !== s || st.closed) return;
  st.mode = to;
  release(st, (x) => x.resolve());
};

const whenSettled = (st: State): Promise<void> =>
  st.mode !== 'pending'
    ? Promise.resolve()
    : st.closed
      ? Promise.reject(new Error('rate limiter closed'))
      : new Promise((resolve, reject) => {
          st.keepAlive ??= setInterval(() => undefined, 60_000);
          st.waiting.push({ resolve, reject });
        });

/** Transitions one after the other; a failed one leaves the process pending until reconnected. */
const serially = (st: State, what: string, fn: () => Promise<void>): Promise<void> =>
  (st.chain = st.chain.then(fn).catch((err) => {
    if (!st.closed) st.log.warn({ err }, `rate limiter: ${what} failed; waiting for the connection`);
  }));

const bool = async (s: ListenSession, sql: string): Promise<boolean> =>
  (await s.query<{ ok: boolean }>(sql, [RATE_LIMIT_LOCK_KEY])).rows[0]!.ok === true;

const enterMemory = async (st: State, s: ListenSession) => {
  if (st.tableInFlight > 0) await new Promise<void>((r) => (st.drained = r));
  await st.memory.load(s);
  settle(st, 'memory', s);
};

/** Alone (exclusive) → memory; else shared, asking whoever counts in memory to hand over. */
async function start(st: State, s: ListenSession): Promise<void> {
  if (await bool(s, 'SELECT pg_try_advisory_lock($1) AS ok')) return enterMemory(st, s);
  let asked = 0;
  while (st.session === s && !st.closed) {
    if (await bool(s, 'SELECT pg_try_advisory_lock_shared($1) AS ok')) return settle(st, 'table', s);
    if (Date.now() - asked >= JOIN_ASK_EVERY_MS) {
      asked = Date.now();
      await s.query(`NOTIFY ${RATE_LIMIT_JOIN_CHANNEL}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Memory → table: hold new hits, write the counts, take the lock shared, drop the exclusive hold. */
async function handOver(st: State, s: ListenSession): Promise<void> {
  if (st.mode !== 'memory' || st.session !== s) return;
  st.mode = 'pending';
  await st.memory.flush(s, { all: true });
  // Granted at once: a session's own exclusive hold does not conflict with its request.
  await s.query('SELECT pg_advisory_lock_shared($1)', [RATE_LIMIT_LOCK_KEY]);
  await s.query('SELECT pg_advisory_unlock($1)', [RATE_LIMIT_LOCK_KEY]);
  st.memory.clear();
  settle(st, 'table', s);
}

/** Table → memory when this process is the last: exclusive (granted beside its own shared hold). */
async function tryUpgrade(st: State, s: ListenSession): Promise<void> {
  if (st.mode !== 'table' || st.session !== s) return;
  if (!(await bool(s, 'SELECT pg_try_advisory_lock($1) AS ok'))) return;
  st.mode = 'pending';
  await enterMemory(st, s);
  await s.query('SELECT pg_advisory_unlock_shared($1)', [RATE_LIMIT_LOCK_KEY]);
}

/** The mode changes: LISTEN (and the lock) on connect; hand-over when asked; write or upgrade on a timer. */
function watch(st: State, pool: Pool, { flushEveryMs = FLUSH_EVERY_MS, upgradeEveryMs = UPGRADE_EVERY_MS }) {
  const stop = listen(pool, RATE_LIMIT_JOIN_CHANNEL, 'audit-service-rate-limit', st.log, {
    onListening: (s) => {
      st.session = s;
      void serially(st, 'start', () => start(st, s));
    },
    onLost: () => {
      // The locks went with the session: no count may be given from memory any more.
      st.session = null;
      st.mode = 'pending';
      st.memory.clear();
    },
    onNotification: () => {
      const s = st.session;
      if (st.mode === 'memory' && s) void serially(st, 'hand-over', () => handOver(st, s));
    },
  });
  let ticks = 0;
  const every = Math.max(1, Math.round(upgradeEveryMs / flushEveryMs));
  const timer = setInterval(() => {
    const s = st.session;
    if (s && st.mode === 'memory')
      void serially(st, 'write', () => (st.mode === 'memory' ? st.memory.flush(s) : Promise.resolve()));
    else if (s && st.mode === 'table' && ++ticks % every === 0) void serially(st, 'upgrade', () => tryUpgrade(st, s));
  }, flushEveryMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await stop();
  };
}

export function createRateLimiter(
  pool: Pool,
  log: Logger,
  intervals: { flushEveryMs?: number; upgradeEveryMs?: number } = {},
): RateLimiter {
  const table = createRateLimitCounter(pool);
  const st: State = {
    log,
    memory: createMemoryWindows(),
    mode: 'pending',
    session: null,
    closed: false,
    tableInFlight: 0,
    drained: null,
    waiting: [],
    keepAlive: undefined,
    chain: Promise.resolve(),
  };
  const stop = watch(st, pool, intervals);

  const viaTable = async (req: HitRequest): Promise<RateLimitHit> => {
    st.tableInFlight++;
    try {
      return await table.hit(req);
    } finally {
      if (--st.tableInFlight === 0 && st.drained) {
        const d = st.drained;
        st.drained = null;
        d();
      }
    }
  };

  return {
    async hit(req) {
      for (;;) {
        if (st.mode === 'memory') return st.memory.hit(req);
        if (st.mode === 'table') return viaTable(req);
        await whenSettled(st);
      }
    },
    async peek(req) {
      for (;;) {
        if (st.mode === 'memory') return st.memory.peek(req);
        if (st.mode === 'table') return peekRateLimit(pool, req);
        await whenSettled(st);
      }
    },
    mode: () => st.mode,
    settled: () => whenSettled(st),
    async close() {
      const s = st.session;
      const wasMemory = st.mode === 'memory';
      // Closed first: a join still asking stops; then the counts go to the table.
      st.closed = true;
      st.mode = 'pending';
      await serially(st, 'close', async () => {
        if (wasMemory && s) await st.memory.flush(s, { all: true });
      });
      release(st, (x) => x.reject(new Error('rate limiter closed')));
      await stop();
    },
  };
}
