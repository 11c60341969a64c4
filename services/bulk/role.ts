import type { Config } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { createSerpProvider } from '../../infra/serp/index.ts';
import { completeTask } from '../../infra/taskQueue/taskQueue.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';
import { advanceStep } from './advance.ts';
import { BULK_ADVANCE } from './tasks.ts';

/** An advance takes well under a second; a dead worker's batch waits at most this long for another. */
const BULK_LEASE_SECONDS = 10;

/**
 * The bulk role: workers moving batches on, entry after entry. Batches of different accounts (and
 * of one account over time) are independent tasks, so any number of processes share them.
 */
export function startBulkRole(config: Config, pool: Pool, log: Logger): (() => Promise<void>)[] {
  if (!config.roles.includes('bulk')) return [];
  const l = log.child({ role: 'bulk' });
  const w = startWorker({
    pool,
    kind: BULK_ADVANCE,
    log: l,
    concurrency: config.bulk.concurrency,
    leaseSeconds: BULK_LEASE_SECONDS,
    maxAttempts: config.pipeline.maxAttempts,
    // Woken by the commit that records the task (infra/wakeups); PIPELINE_POLL_MS is the safety net.
    idleMs: config.pipeline.pollMs,
    run: advanceStep({
      pool,
      serp: createSerpProvider(config.serp),
      log: l,
      inactivitySeconds: config.bulk.inactivitySeconds,
    }),
    // An advance that keeps failing is dropped; the batch is then closed by its inactivity timer.
    exhausted: async (task, lastError) => {
      l.error({ taskId: task.taskId, lastError }, 'bulk advance given up; the inactivity timeout will close the batch');
      await completeTask(pool, task);
    },
  });
  return [() => w.stop()];
}
