import type { Config } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';
import { timersOf } from './timers.ts';

/**
 * The scheduler role: one leased worker per timer kind (services/scheduler/timers.ts). Any number of
 * processes can run it: SKIP LOCKED gives each due timer to one of them, and a timer that fires
 * twice (its holder died after appending) finds its event already recorded.
 */
export function startSchedulerRole(config: Config, pool: Pool, log: Logger): (() => Promise<void>)[] {
  if (!config.roles.includes('scheduler')) return [];
  const roleLog = log.child({ role: 'scheduler' });
  return timersOf(config, pool).map((timer) => {
    const worker = startWorker({
      pool,
      kind: timer.kind,
      log: roleLog,
      concurrency: 1,
      leaseSeconds: config.scheduler.leaseSeconds,
      idleMs: config.scheduler.pollMs,
      // A timer must not be lost: one that keeps failing is logged and tried again, never dropped.
      maxAttempts: Number.MAX_SAFE_INTEGER,
      run: timer.fire,
      exhausted: async (task, lastError) => roleLog.error({ taskId: task.taskId, lastError }, 'timer keeps failing'),
    });
    return () => worker.stop();
  });
}
