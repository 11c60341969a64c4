import type { Config } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';
import { failGeneration, generateStep, MEASURE } from './generateStep.ts';
import { measureStep } from './measureStep.ts';
import { GENERATE } from './requestGeneration.ts';
import { transact } from '../../infra/eventStore/eventStore.ts';
import { completeTask } from '../../infra/taskQueue/taskQueue.ts';

/**
 * The apply role: generation and measurement as leased tasks (recorded by POST apply and by a
 * finished generation). Any number of processes can run it; a generation given up after
 * maxAttempts ends failed and refunded; a measurement given up is simply dropped (never a credit).
 */
export function startApplyRole(config: Config, pool: Pool, log: Logger): (() => Promise<void>)[] {
  if (!config.roles.includes('apply')) return [];
  const common = {
    pool,
    leaseSeconds: config.pipeline.leaseSeconds,
    maxAttempts: config.pipeline.maxAttempts,
    concurrency: config.pipeline.auditorConcurrency,
  };
  const gen = startWorker({
    ...common,
    kind: GENERATE,
    log: log.child({ role: 'apply' }),
    run: generateStep(pool, config.applyLlm ?? null),
    exhausted: (task, lastError) =>
      failGeneration(
        pool,
        task,
        `The generation failed ${config.pipeline.maxAttempts} times: ${lastError.split('\n')[0]}`,
      ),
  });
  const measure = startWorker({
    ...common,
    kind: MEASURE,
    log: log.child({ role: 'apply' }),
    run: measureStep(pool),
    exhausted: (task) => transact(pool, (tx) => completeTask(tx, task)),
  });
  return [() => gen.stop(), () => measure.stop()];
}
