import type { Config } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { completeTask } from '../../infra/taskQueue/taskQueue.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';
import { timersOf } from './timers.ts';

/**
 * The scheduler role: one leased worker per timer kind. Any number of processes may run it; each
 * due task goes to one of them (SKIP LOCKED) and the decider behind `fire` emits its event once.
 */
export function startSchedulerRole(config: Config, pool: Pool, log: Logger): (() => Promise<void>)[] {
  if (!config.roles.includes('scheduler')) return [];
  return timersOf(config, pool).map((timer) => {
    const l = log.child({ role: 'scheduler', timer: timer.kind });
    const w = startWorker({
      pool, kind: timer.kind, log: l, concurrency: 1, leaseSeconds: 60, maxAttempts: 10, idleMs: 500,
      run: timer.fire,
      // A timer that keeps failing is dropped with a loud log line rather than retried for ever.
      exhausted: async (task, lastError) => {
        l.error({ taskId: task.taskId, lastError }, 'timer given up');
        await completeTask(pool, task.taskId);
      },
    });
    return () => w.stop();
  });
}
