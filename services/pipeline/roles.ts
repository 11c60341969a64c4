import type { Config } from '../../infra/config.ts';
import { createGuard } from '../../infra/http/guard.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { createSerpProvider } from '../../infra/serp/index.ts';
import type { Subscriber } from '../../infra/subscriptions/port.ts';
import { analyseStep } from './analyseStep.ts';
import { fetchStep } from './fetchStep.ts';
import { ANALYSE, FETCH } from './tasks.ts';
import { startReactions } from '../../infra/reactions.ts';
import { failAudit, internalErrorMessage } from './outcome.ts';
import type { Task } from '../../infra/taskQueue/taskQueue.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';

/**
 * The crawler and auditor roles: their reactions (events into tasks, services/reactions.ts) and the
 * workers doing the tasks. Any number of processes can run either role.
 */
export async function startPipelineRoles(
  config: Config,
  pool: Pool,
  subscriber: Subscriber,
  log: Logger,
): Promise<(() => Promise<void>)[]> {
  const wantCrawler = config.roles.includes('crawler');
  const wantAuditor = config.roles.includes('auditor');
  if (!wantCrawler && !wantAuditor) return [];
  const stops = await startReactions(config, subscriber, ['crawler', 'auditor']);
  const guard = createGuard({ allowPrivateAddresses: config.allowPrivateAddresses });
  const limits = {
    timeoutMs: config.crawl.timeoutMs,
    maxBytes: config.crawl.maxBytes,
    maxRedirects: config.crawl.maxRedirects,
  };
  // A task that kept failing: the client reads what happened in words, the log has the cause.
  const giveUp = (task: Task, lastError: string, stage: 'fetch' | 'analyse') => {
    log.error(
      { auditId: task.subjectId, taskId: task.taskId, attempts: config.pipeline.maxAttempts, lastError },
      `the ${stage} step was given up`,
    );
    return failAudit(pool, task, 'internal_error', internalErrorMessage(stage, config.pipeline.maxAttempts), stage);
  };
  const common = {
    pool,
    leaseSeconds: config.pipeline.leaseSeconds,
    maxAttempts: config.pipeline.maxAttempts,
    idleMs: config.pipeline.pollMs,
  };
  if (wantCrawler) {
    const w = startWorker({
      ...common,
      kind: FETCH,
      concurrency: config.pipeline.crawlerConcurrency,
      log: log.child({ role: 'crawler' }),
      run: fetchStep({ pool, guard, limits }),
      exhausted: (task, lastError) => giveUp(task, lastError, 'fetch'),
    });
    stops.push(() => w.stop());
  }
  if (wantAuditor) {
    const w = startWorker({
      ...common,
      kind: ANALYSE,
      concurrency: config.pipeline.auditorConcurrency,
      log: log.child({ role: 'auditor' }),
      run: analyseStep({
        pool,
        guard,
        limits,
        serp: createSerpProvider(config.serp),
        log: log.child({ role: 'auditor' }),
        competitorCount: config.crawl.competitorCount,
        competitorConcurrency: config.crawl.competitorConcurrency,
        shareDayMs: config.share.daySeconds * 1000,
      }),
      exhausted: (task, lastError) => giveUp(task, lastError, 'analyse'),
    });
    stops.push(() => w.stop());
  }
  return stops;
}
