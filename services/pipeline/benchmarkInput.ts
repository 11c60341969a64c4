import type { CrawlLimits } from '../../infra/http/crawler.ts';
import { crawlCompetitors } from '../../infra/http/competitors.ts';
import type { UrlGuard } from '../../infra/http/guard.ts';
import type { Logger } from '../../infra/logger.ts';
import type { SerpProvider } from '../../infra/serp/index.ts';
import type { SerpBenchmarkInput } from '../engine/types.ts';
import { isAppError } from '../../core/errors.ts';

export interface BenchmarkDeps {
  serp: SerpProvider;
  guard: UrlGuard;
  limits: Partial<CrawlLimits>;
  competitorCount: number;
  competitorConcurrency: number;
  log: Logger;
}

/**
 * The SERP benchmark's input: keyword data from the provider and the top organic pages fetched
 * through the guarded crawler. A provider that is misconfigured (config_error) fails the audit
 * before its credit is taken; an outage or a timeout leaves the audit without a benchmark (null,
 * as with no provider) rather than failing it.
 */
export async function loadBenchmarkInput(
  deps: BenchmarkDeps,
  keyword: string,
  language: string,
): Promise<SerpBenchmarkInput | null> {
  let serp;
  try {
    serp = await deps.serp.lookup(keyword, language);
  } catch (e) {
    if (isAppError(e) && e.code === 'config_error') throw e;
    deps.log.warn({ err: e, keyword }, 'SERP provider failed; the audit goes on without a benchmark');
    return null;
  }
  if (!serp) return null;
  const { pages, failures } = await crawlCompetitors(serp.organic, {
    guard: deps.guard,
    limits: deps.limits,
    count: deps.competitorCount,
    concurrency: deps.competitorConcurrency,
  });
  if (failures.length) deps.log.info({ keyword, failures }, 'some competitor pages could not be fetched');
  return {
    searchVolume: serp.searchVolume,
    serpOrganicCount: serp.serpOrganicCount,
    paa: serp.paa,
    related: serp.related,
    competitors: pages.map((p) => ({ url: p.url, title: p.title, html: p.html })),
  };
}
