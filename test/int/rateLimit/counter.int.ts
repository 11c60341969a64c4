import t from 'tap';
import { createRateLimitCounter } from '../../../infra/rateLimit/counter.ts';
import type { Queryable } from '../../../infra/postgres/pool.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';

/**
 * The counter batches concurrent hits into one statement (infra/rateLimit/counter.ts). Batched or
 * not, and over several counters (API processes) on one database, every count of a window is
 * handed out once: exactly `limit` requests pass.
 */
t.test(
  'concurrent hits over three counters: exactly the limit passes, each count once, in few statements',
  async (t) => {
    const { pool } = await testDatabase(t);
    let statements = 0;
    // The real pool, counting the statements the counters send.
    const counted = {
      query: (...args: Parameters<typeof pool.query>) => (statements++, pool.query(...args)),
    } as unknown as Queryable;
    const counters = [
      createRateLimitCounter(counted),
      createRateLimitCounter(counted),
      createRateLimitCounter(counted),
    ];
    const limit = 70;
    // Early in a window, so all hits fall into one.
    await eventually(async () => Date.now() % 60_000 < 45_000, 20_000, 'room in the current minute');
    const hits = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        counters[i % 3]!.hit({ keyId: 'key_a', bucket: 'read', limit, windowSeconds: 60 }),
      ),
    );
    const passed = hits.filter((h) => !h.exceeded);
    t.equal(passed.length, limit, 'exactly the limit passes');
    t.same(
      passed.map((h) => h.remaining).sort((a, b) => a - b),
      Array.from({ length: limit }, (_, i) => i),
      'each count handed out once (remaining limit-1 … 0)',
    );
    t.ok(
      hits.filter((h) => h.exceeded).every((h) => h.remaining === 0 && h.retryAfter >= 1 && h.retryAfter <= 60),
      'refused hits: 0 remaining, a retryAfter',
    );
    t.equal(new Set(hits.map((h) => h.resetAt)).size, 1, 'one window');
    t.ok(statements < 300 / 3, `batched: ${statements} statements for 300 hits`);
    const row = await pool.query(`SELECT hits FROM rate_limit_counters WHERE key_id = 'key_a' AND bucket = 'read'`);
    t.equal(row.rows[0].hits, 300, 'the row counts every hit, refused ones too (as single upserts would)');

    // Other keys and buckets in the same statements keep counts of their own.
    const mixed = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        counters[i % 2]!.hit({
          keyId: `key_${i % 4}`,
          bucket: i % 8 < 4 ? 'share' : 'apply',
          limit: 3,
          windowSeconds: 60,
        }),
      ),
    );
    const passedPer = new Map<string, number>();
    mixed.forEach((h, i) => {
      if (!h.exceeded) passedPer.set(`${i % 4}/${i % 8 < 4}`, (passedPer.get(`${i % 4}/${i % 8 < 4}`) ?? 0) + 1);
    });
    t.same([...passedPer.values()], [3, 3, 3, 3, 3, 3, 3, 3], 'three per key and bucket (8 pairs, 5 hits each)');
  },
);

t.test('an idle counter sends a hit at once; one window size per bucket', async (t) => {
  const { pool } = await testDatabase(t);
  const counter = createRateLimitCounter(pool);
  const t0 = performance.now();
  const first = await counter.hit({ keyId: 'k', bucket: 'submission', limit: 2, windowSeconds: 60 });
  t.ok(performance.now() - t0 < 2_000, 'answered');
  t.equal(first.remaining, 1);
  await t.rejects(
    counter.hit({ keyId: 'k', bucket: 'submission', limit: 2, windowSeconds: 30 }),
    /counts in 60 s windows/,
    'one window size per bucket',
  );
  t.equal(
    (await counter.hit({ keyId: 'k', bucket: 'submission', limit: 2, windowSeconds: 60 })).remaining,
    0,
    'the counter goes on',
  );
});
