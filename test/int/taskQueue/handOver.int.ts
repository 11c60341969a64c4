import t from 'tap';
import { createLogger } from '../../../infra/logger.ts';
import { withTransaction, type Pool, type PoolClient } from '../../../infra/postgres/pool.ts';
import { transactHandingOver } from '../../../infra/taskQueue/handOver.ts';
import { completeTask, enqueueTask, taskIdOf, type Task } from '../../../infra/taskQueue/taskQueue.ts';
import { startWorker } from '../../../infra/taskQueue/worker.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';

const log = createLogger('test-hand-over', 'warn');

/** A worker of `kind` that records the claims it runs and completes each. */
function recordingWorker(pool: Pool, kind: string, runs: Task[]) {
  return startWorker({
    pool,
    kind,
    log,
    concurrency: 1,
    leaseSeconds: 30,
    maxAttempts: 3,
    idleMs: 60_000,
    run: async (task) => {
      runs.push(task);
      await withTransaction(pool, (tx) => completeTask(tx, task));
    },
    exhausted: async () => undefined,
  });
}

const attemptsIn = async (db: Pool | PoolClient, kind: string, subjectId: string): Promise<number> =>
  (
    await db.query<{ attempts: number }>('SELECT attempts FROM pipeline_tasks WHERE task_id = $1', [
      taskIdOf(kind, subjectId),
    ])
  ).rows[0]!.attempts;

/** A transaction that makes a task of `kind` due and hands it over; the task's attempts inside it. */
async function makeDue(pool: Pool, kind: string, subjectId: string, fail = false): Promise<number> {
  let inside = -1;
  await transactHandingOver(pool, kind, async (tx, handOver) => {
    await enqueueTask(tx, kind, 'acc_1', subjectId);
    await handOver(tx, subjectId);
    inside = await attemptsIn(tx, kind, subjectId);
    if (fail) throw new Error('the step fails after making the task due');
  });
  return inside;
}

t.test(
  'a task made due in a transaction is claimed in it for an idle loop of this process, which runs it',
  async (t) => {
    const { pool } = await testDatabase(t);
    const runs: Task[] = [];
    const worker = recordingWorker(pool, 'k', runs);
    t.teardown(() => worker.stop());
    t.equal(await makeDue(pool, 'k', 's1'), 1, 'claimed before the commit: no other worker can take it');
    await eventually(async () => runs.length === 1, 10_000, 'the loop to run it');
    t.same(
      runs.map((r) => [r.subjectId, r.accountId, r.attempt]),
      [['s1', 'acc_1', 1]],
      'run once, by the claim made in the transaction',
    );
    await eventually(
      async () => (await pool.query("SELECT 1 FROM pipeline_tasks WHERE status = 'done'")).rowCount === 1,
      10_000,
      'done',
    );
    t.equal(await attemptsIn(pool, 'k', 's1'), 1, 'never claimed again');
  },
);

t.test('without an idle loop here the task waits unclaimed; a failed transaction gives its loop back', async (t) => {
  const { pool } = await testDatabase(t);
  t.equal(await makeDue(pool, 'k', 'nobody'), 0, 'no worker of the kind in this process: left for any worker');
  const runs: Task[] = [];
  const worker = recordingWorker(pool, 'k', runs);
  t.teardown(() => worker.stop());
  await eventually(async () => runs.length === 1, 10_000, 'a worker to claim it as before');
  await t.rejects(makeDue(pool, 'k', 'rolled-back', true), /fails after/);
  t.equal(
    (await pool.query('SELECT 1 FROM pipeline_tasks WHERE task_id = $1', [taskIdOf('k', 'rolled-back')])).rowCount,
    0,
    'the rolled-back task is not there',
  );
  t.equal(await makeDue(pool, 'k', 's2'), 1, 'the loop held for the rolled-back task can be held again');
  await eventually(async () => runs.length === 2, 10_000, 'the loop to run it');
  t.same(
    runs.map((r) => r.subjectId),
    ['nobody', 's2'],
  );
});
