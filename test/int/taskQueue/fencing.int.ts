import t from 'tap';
import { createLogger } from '../../../infra/logger.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import {
  claimTask,
  completeTask,
  enqueueTask,
  extendLease,
  LeaseLostError,
  releaseTask,
  type Task,
} from '../../../infra/taskQueue/taskQueue.ts';
import { startWorker } from '../../../infra/taskQueue/worker.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';

const LEASE = 0.5; // seconds: the "pause" below outlasts it
const leaseOf = async (
  db: { query: (q: string, p: unknown[]) => Promise<{ rows: { until: Date | null }[] }> },
  id: string,
) => (await db.query('SELECT lease_until AS until FROM pipeline_tasks WHERE task_id = $1', [id])).rows[0]!.until;

t.test('a holder whose lease ran out and was claimed again can neither complete, extend nor release', async (t) => {
  const { pool } = await testDatabase(t);
  await pool.query('CREATE TABLE outcomes (task_id text, attempt int)');
  await enqueueTask(pool, 'k', 'acc_1', 's1');
  const stale = (await claimTask(pool, 'k', LEASE))!;
  t.equal(stale.attempt, 1);
  await new Promise((r) => setTimeout(r, LEASE * 1000 + 200));
  const fresh = (await claimTask(pool, 'k', 30))!;
  t.equal(fresh.attempt, 2, 'the task was claimed again once the lease ran out');

  const freshLease = await leaseOf(pool, fresh.taskId);
  t.equal(await extendLease(pool, stale, 60), false, 'the stale heartbeat does not extend');
  await releaseTask(pool, stale, 'stale error', 0);
  t.same(await leaseOf(pool, fresh.taskId), freshLease, "the stale release leaves the new holder's lease alone");

  // The stale holder's outcome and its completion share a transaction: refused, so rolled back.
  const record = (claim: Task) =>
    withTransaction(pool, async (tx) => {
      await tx.query('INSERT INTO outcomes VALUES ($1, $2)', [claim.taskId, claim.attempt]);
      await completeTask(tx, claim);
    });
  await t.rejects(record(stale), LeaseLostError);
  await record(fresh);
  await t.rejects(record(stale), LeaseLostError, 'still refused after the new holder completed');
  t.same((await pool.query('SELECT attempt FROM outcomes')).rows, [{ attempt: 2 }], "only the latest claim's outcome");
  await record(fresh); // the same claim completing again (early, then at the end) is fine
});

t.test('two workers: one paused past its lease wakes up after the other finished; one outcome', async (t) => {
  const { pool } = await testDatabase(t);
  await pool.query('CREATE TABLE outcomes (task_id text, attempt int)');
  await enqueueTask(pool, 'k', 'acc_1', 's1');
  let wake!: () => void;
  const paused = new Promise<void>((r) => (wake = r));
  const runs: number[] = [];
  const log = createLogger('fencing-test', 'error');
  const worker = (pause: boolean) =>
    startWorker({
      pool,
      kind: 'k',
      log,
      concurrency: 1,
      // Long: the paused holder's heartbeat (every lease/3) must not fire during the test, as it
      // would not in a SIGSTOPped process.
      leaseSeconds: 30,
      maxAttempts: 5,
      idleMs: 50,
      async run(task) {
        runs.push(task.attempt);
        // Stands for SIGSTOP past the lease: the lease runs out while this holder "sleeps".
        if (pause) {
          await pool.query("UPDATE pipeline_tasks SET lease_until = now() - interval '1 second'");
          await paused;
        }
        await withTransaction(pool, async (tx) => {
          await tx.query('INSERT INTO outcomes VALUES ($1, $2)', [task.taskId, task.attempt]);
          await completeTask(tx, task);
        });
      },
      exhausted: () => Promise.reject(new Error('not expected')),
    });
  const a = worker(true);
  await eventually(async () => runs.length === 1, 10_000, 'the first claim');
  const b = worker(false);
  await eventually(
    async () => (await pool.query("SELECT 1 FROM pipeline_tasks WHERE status = 'done'")).rowCount === 1,
    10_000,
    'the second worker to finish',
  );
  wake();
  await a.stop();
  await b.stop();
  t.same(runs, [1, 2]);
  t.same(
    (await pool.query('SELECT attempt FROM outcomes')).rows,
    [{ attempt: 2 }],
    'the woken worker recorded nothing',
  );
  const task = (await pool.query('SELECT status, attempts FROM pipeline_tasks')).rows[0];
  t.same(task, { status: 'done', attempts: 2 }, 'nobody claimed it a third time');
});
