/**
 * Crawler settings from the environment, loaded by infra/config.ts:
 *   CRAWL_TIMEOUT_MS      whole fetch, redirects included; default 15000
 *   CRAWL_MAX_BYTES       decoded body; default 5 MB
 *   CRAWL_MAX_REDIRECTS   default 5
 *   SERP_COMPETITORS      top organic pages crawled for the benchmark; default 10
 *   SERP_COMPETITOR_CONCURRENCY   pages fetched at once; default 3
 */
import { envReader, type Env } from '../envReader.ts';
import type { CrawlLimits } from './crawler.ts';

export interface CrawlSettings extends CrawlLimits {
  competitorCount: number;
  competitorConcurrency: number;
}

export function loadCrawlSettings(env: Env, problems: string[]): CrawlSettings {
  const { int } = envReader(env, problems);
  return {
    timeoutMs: int('CRAWL_TIMEOUT_MS', 15_000, 500, 120_000),
    maxBytes: int('CRAWL_MAX_BYTES', 5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
    maxRedirects: int('CRAWL_MAX_REDIRECTS', 5, 0, 20),
    competitorCount: int('SERP_COMPETITORS', 10, 0, 20),
    competitorConcurrency: int('SERP_COMPETITOR_CONCURRENCY', 3, 1, 5),
  };
}
