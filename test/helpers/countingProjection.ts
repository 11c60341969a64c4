import type { Projection } from '../../projections/projection.ts';

/**
 * A projection that a double application would visibly corrupt: it counts events per account and
 * sums their numbers. `onBatch` lets a crash test stop it half-way through a batch.
 */
export const countingProjection = (onHalfBatch?: () => Promise<void>): Projection => ({
  name: 'test_counts',
  version: 1,
  tables: ['test_counts'],
  createSql: `CREATE TABLE IF NOT EXISTS test_counts (account_id text PRIMARY KEY, events integer NOT NULL, total bigint NOT NULL, last_n integer NOT NULL)`,
  canHandle: ['TestHappened'],
  async handle(events, tx) {
    for (const [i, e] of events.entries()) {
      if (onHalfBatch && i === Math.floor(events.length / 2)) await onHalfBatch();
      const n = (e.payload as { n: number }).n;
      await tx.query(
        `INSERT INTO test_counts (account_id, events, total, last_n) VALUES ($1, 1, $2::int, $2::int)
         ON CONFLICT (account_id) DO UPDATE SET events = test_counts.events + 1, total = test_counts.total + $2::int, last_n = $2::int`,
        [e.accountId, n],
      );
    }
  },
});
