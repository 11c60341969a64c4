import type { Config } from '../../infra/config.ts';
import { createGuard } from '../../infra/http/guard.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { createSerpProvider } from '../../infra/serp/index.ts';
import type { Subscriber } from '../../infra/subscriptions/port.ts';
import { analyseStep } from '../auditor/analyseStep.ts';
import { fetchStep } from '../crawler/fetchStep.ts';
import { ANALYSE, FETCH, startPipelineFeeder } from './feeder.ts';
import { failAudit } from './outcome.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';

/**
 * The crawler and auditor roles: the feeder (a consumer group turning events into tasks) and the
 * workers doing them. Any number of processes can run either role.
 */
export async function startPipelineRoles(config: Config, pool: Pool, subscriber: Subscriber, log: Logger): Promise<(() => Promise<void>)[]> {
  const wantCrawler = config.roles.includes('crawler');
  const wantAuditor = config.roles.includes('auditor');
  if (!wantCrawler && !wantAuditor) return [];
  const stops: (() => Promise<void>)[] = [];
  const feeder = await startPipelineFeeder(subscriber);
  stops.push(() => feeder.stop());
  const guard = createGuard({ allowPrivateAddresses: config.allowPrivateAddresses });
  const limits = { timeoutMs: config.crawl.timeoutMs, maxBytes: config.crawl.maxBytes, maxRedirects: config.crawl.maxRedirects };
  const common = { pool, leaseSeconds: config.pipeline.leaseSeconds, maxAttempts: config.pipeline.maxAttempts, idleMs: config.pipeline.pollMs };
  if (wantCrawler) {
    const w = startWorker({
      ...common, kind: FETCH, concurrency: config.pipeline.crawlerConcurrency, log: log.child({ role: 'crawler' }),
      run: fetchStep({ pool, guard, limits }),
      exhausted: (task, lastError) => failAudit(pool, task, 'internal_error', `Fetching failed ${config.pipeline.maxAttempts} times: ${lastError.split('\n')[0]}`, 'fetch'),
    });
    stops.push(() => w.stop());
  }
  if (wantAuditor) {
    const w = startWorker({
      ...common, kind: ANALYSE, concurrency: config.pipeline.auditorConcurrency, log: log.child({ role: 'auditor' }),
      run: analyseStep({
        pool, guard, limits, serp: createSerpProvider(config.serp), log: log.child({ role: 'auditor' }),
        competitorCount: config.crawl.competitorCount, competitorConcurrency: config.crawl.competitorConcurrency,
      }),
      exhausted: (task, lastError) => failAudit(pool, task, 'internal_error', `The analysis failed ${config.pipeline.maxAttempts} times: ${lastError.split('\n')[0]}`, 'analyse'),
    });
    stops.push(() => w.stop());
  }
  return stops;
}
