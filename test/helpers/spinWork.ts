import { workerTask } from '../../infra/workers/workerTask.ts';

/** Pool tasks for the pool's own tests (test/unit/workers/cpuPool.unit.ts). */

/** Synchronous code that never ends: only terminating its thread stops it. */
export const spin = workerTask((_: null): number => {
  let n = 0;
  for (;;) n = (n + 1) % 1_000_003;
});

export const double = workerTask((x: number): number => 2 * x);
