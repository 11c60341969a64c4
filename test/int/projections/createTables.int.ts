import t from 'tap';
import { asyncProjections } from '../../../projections/index.ts';
import { createProjectionTables } from '../../../projections/runner.ts';
import { createPool } from '../../../infra/postgres/pool.ts';
import { testDatabase } from '../../helpers/db.ts';

// Every role process creates the projection tables at start-up; the soak starts six at once.
t.test('processes starting at once create the projection tables without failing', async (t) => {
  const { url } = await testDatabase(t);
  const pools = Array.from({ length: 6 }, () => createPool(url, 2));
  // The pools end in the test itself, before testDatabase's teardown drops the database: dropped
  // under them, their idle connections were terminated by the server and the error failed the test
  // (seen on a loaded machine). A pool's end() resolves once it has asked its clients to close, not
  // once they have: a connection still closing when the database is dropped is terminated too, and
  // that error is no concern of this test (seen again in stop 38's clean clone).
  for (const p of pools) p.on('error', () => undefined);
  try {
    const outcomes = await Promise.allSettled(pools.map((p) => createProjectionTables(p, asyncProjections)));
    t.strictSame(
      outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)),
      [],
    );
    const tables = await pools[0]!.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename IN ('ledger_accounts', 'ledger_entries')`,
    );
    t.equal(tables.rows[0]!.n, 2);
  } finally {
    await Promise.all(pools.map((p) => p.end()));
  }
});
