import t from 'tap';
import { isAppError } from '../../../core/errors.ts';
import { closeCpuPool, configureCpuPool, CpuTimeLimitError, runOnPool } from '../../../infra/workers/cpuPool.ts';

/**
 * One runaway task cannot hold the service (issue 22's bound, checked on the pool itself): a task
 * that never ends is stopped at the CPU time limit with audit_failed, a task on the other thread
 * is answered meanwhile, and the pool answers again once the runaway's thread is replaced.
 */
const WORK = new URL('../../helpers/spinWork.ts', import.meta.url);
const LIMIT_MS = 1500;

// Without the bound the runaway never ends: the test's own timeout fails it.
t.test('a runaway task ends in audit_failed at the time limit; the others go on', { timeout: 120_000 }, async (t) => {
  configureCpuPool({ threads: 2, timeLimitMs: LIMIT_MS });
  t.teardown(closeCpuPool);
  t.equal(await runOnPool(WORK, 'double', 21), 42, 'the pool answers');

  const started = Date.now();
  let stopped = false;
  const runaway = runOnPool(WORK, 'spin', null).then(
    () => null,
    (e: unknown) => e,
  );
  void runaway.finally(() => (stopped = true));
  // Beside the runaway, on the other thread (started now: loading it takes wall time, not the runaway's CPU).
  t.equal(await runOnPool(WORK, 'double', 2), 4, 'a task beside the runaway is answered');
  t.notOk(stopped, 'while the runaway still spins');

  const error = await runaway;
  t.ok(error instanceof CpuTimeLimitError, 'the runaway ends with the time-limit error');
  t.ok(isAppError(error) && error.code === 'audit_failed', 'as audit_failed (spec: the job ends in error)');
  t.ok(Date.now() - started >= LIMIT_MS, `not before its limit (${Date.now() - started} ms)`);

  const after = await Promise.all([1, 2, 3].map((x) => runOnPool(WORK, 'double', x)));
  t.same(after, [2, 4, 6], 'the pool goes on after the runaway thread is terminated');
});
