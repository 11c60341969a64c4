import t from 'tap';
import { createLogger } from '../../../infra/logger.ts';
import { createRateLimiter, type RateLimiter } from '../../../infra/rateLimit/limiter.ts';
import type { HitRequest } from '../../../infra/rateLimit/counter.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';

/**
 * infra/rateLimit/limiter.ts: a process alone counts in memory; with several, every one counts in
 * the table; the counts go over with each hand-over, so the limit stays exact throughout.
 */
const log = createLogger('test-limiter', 'error');
const req = (limit: number, bucket = 'submission'): HitRequest => ({
  keyId: 'key_a',
  bucket,
  limit,
  windowSeconds: 60,
});
const tableHits = async (pool: Pool, bucket = 'submission'): Promise<number> =>
  ((
    await pool.query(`SELECT sum(hits)::int AS n FROM rate_limit_counters WHERE key_id = 'key_a' AND bucket = $1`, [
      bucket,
    ])
  ).rows[0]!.n as number | null) ?? 0;

t.test('alone in memory, hand-over to the table when a second process starts, and back', async (t) => {
  const { pool } = await testDatabase(t);
  const opts = { flushEveryMs: 100, upgradeEveryMs: 300 };
  const open = async () => {
    const l = createRateLimiter(pool, log, opts);
    t.teardown(() => l.close());
    await l.settled();
    return l;
  };
  // Early in a window, so every hit of the test falls into one.
  await eventually(async () => Date.now() % 60_000 < 35_000, 30_000, 'room in the current minute');

  const a = await open();
  t.equal(a.mode(), 'memory', 'the only process counts in memory');
  const first = await Promise.all([1, 2, 3].map(() => a.hit(req(10))));
  t.same(
    first.map((h) => h.remaining),
    [9, 8, 7],
    'counted in arrival order',
  );
  t.equal(new Set(first.map((h) => h.resetAt)).size, 1);
  t.equal(first[0]!.resetAt % 60, 0, 'windows aligned on the minute');
  await eventually(async () => (await tableHits(pool)) === 3, 5_000, 'the counts written to the table');
  t.same(await a.peek(req(10)), { limit: 10, remaining: 7, resetAt: first[0]!.resetAt }, 'peek from memory');

  const b = await open();
  t.equal(b.mode(), 'table', 'a second process counts in the table');
  t.equal(a.mode(), 'table', 'and the first handed its counts over');
  t.equal((await b.hit(req(10))).remaining, 6, 'the count goes on where the first left it');
  t.equal((await a.hit(req(10))).remaining, 5, 'one counter, whichever process counts');
  const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).hit(req(10))));
  t.equal(burst.filter((h) => !h.exceeded).length, 5, 'a concurrent burst over both: exactly the rest passes');
  t.same(
    burst
      .filter((h) => !h.exceeded)
      .map((h) => h.remaining)
      .sort(),
    [0, 1, 2, 3, 4],
    'each count once',
  );

  // A third process asks too; then two leave and the last goes back to memory.
  const c = await open();
  t.equal(c.mode(), 'table');
  await b.close();
  await c.close();
  await eventually(async () => a.mode() === 'memory', 10_000, 'the last process back in memory');
  const after = await a.hit(req(20, 'read'));
  t.equal(after.remaining, 19, 'another bucket starts at its own count');
  t.equal((await a.hit(req(10))).remaining, 0, 'the spent window stays spent after the way back');
  t.ok((await a.hit(req(10))).exceeded);
  t.equal((await a.peek(req(10))).remaining, 0);
});

t.test('closing writes the counts; a lost connection stops counting in memory until it is back', async (t) => {
  const { pool } = await testDatabase(t);
  await eventually(async () => Date.now() % 60_000 < 40_000, 30_000, 'room in the current minute');
  // Writes only when closed (the periodic write is an hour away).
  const a = createRateLimiter(pool, log, { flushEveryMs: 3_600_000 });
  await a.settled();
  t.equal(a.mode(), 'memory');
  for (let i = 0; i < 4; i++) await a.hit(req(10));
  t.equal(await tableHits(pool), 0, 'not written yet');
  await a.close();
  t.equal(await tableHits(pool), 4, 'closing wrote the counts');
  await t.rejects(a.hit(req(10)), /closed/, 'a closed limiter counts no more');

  const b: RateLimiter = createRateLimiter(pool, log, { flushEveryMs: 100 });
  t.teardown(() => b.close());
  await b.settled();
  t.equal((await b.hit(req(10))).remaining, 5, 'the next process starts from the written counts');
  await eventually(async () => (await tableHits(pool)) === 5, 5_000, 'written');
  // The server ends the session that holds the lock (as a failover or an operator would).
  await pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE application_name = 'audit-service-rate-limit' AND datname = current_database()`,
  );
  await eventually(async () => b.mode() === 'pending', 5_000, 'counting stopped with the lock');
  const pending = b.hit(req(10));
  await eventually(async () => b.mode() === 'memory', 10_000, 'reconnected and alone again');
  t.equal((await pending).remaining, 4, 'the waiting hit is counted once the lock is back, from the table');
});
