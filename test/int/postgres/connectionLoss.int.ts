import t from 'tap';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { testDatabase } from '../../helpers/db.ts';

// PostgreSQL restarting ends every session, also those of transactions waiting between two
// queries; the soak saw every service process die of it ("Connection terminated unexpectedly").
t.test(
  'a transaction whose session the server ends between two queries fails; the process and the pool carry on',
  async (t) => {
    const { pool } = await testDatabase(t);
    const attempt = withTransaction(pool, async (tx) => {
      const pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((r) => setTimeout(r, 500)); // the client learns of it while idle
      await tx.query('SELECT 1');
    });
    await t.rejects(attempt, 'the transaction fails');
    const r = await pool.query<{ ok: number }>('SELECT 1 AS ok');
    t.equal(r.rows[0]!.ok, 1, 'the pool hands out a live session next');
    t.equal(
      await withTransaction(pool, async (tx) => (await tx.query<{ n: number }>('SELECT 2 AS n')).rows[0]!.n),
      2,
      'and transactions work again',
    );
  },
);
