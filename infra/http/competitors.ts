/**
 * The benchmark's competitor pages: the top N organic results of a SERP fetched through the same
 * guarded crawler as the audited page, a few at a time. A page that cannot be fetched is skipped
 * and reported, never fatal: the benchmark is built from the pages that could be read.
 */
import { isAppError } from '../../core/errors.ts';
import { fetchPage, type FetchPageOptions } from './crawler.ts';
import type { OrganicResult } from '../serp/types.ts';

export interface CompetitorPage {
  /** The URL as the SERP listed it. */
  url: string;
  title: string;
  html: string;
  finalUrl: string;
}

export interface CompetitorFailure {
  url: string;
  /** crawl_failed's extra.reason (blocked, timeout, http_status, ...) or `other`. */
  reason: string;
  message: string;
}

export interface CompetitorCrawlOptions extends FetchPageOptions {
  /** How many organic results to fetch, from the top (default 10). */
  count?: number;
  /** Pages fetched at once (default 3). */
  concurrency?: number;
}

export async function crawlCompetitors(
  organic: OrganicResult[],
  opts: CompetitorCrawlOptions,
): Promise<{ pages: CompetitorPage[]; failures: CompetitorFailure[] }> {
  const seen = new Set<string>();
  const todo = organic.filter((o) => !seen.has(o.url) && seen.add(o.url)).slice(0, opts.count ?? 10);
  const results: ({ page: CompetitorPage } | { failure: CompetitorFailure })[] = new Array(todo.length);

  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const i = next++;
      const { url, title } = todo[i]!;
      try {
        const page = await fetchPage(url, opts);
        results[i] = { page: { url, title, html: page.html, finalUrl: page.finalUrl } };
      } catch (e) {
        const reason = isAppError(e) && typeof e.extra.reason === 'string' ? e.extra.reason : 'other';
        results[i] = { failure: { url, reason, message: (e as Error).message } };
      }
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency ?? 3, todo.length));
  await Promise.all(Array.from({ length: workers }, worker));

  const pages: CompetitorPage[] = [];
  const failures: CompetitorFailure[] = [];
  for (const r of results) {
    if ('page' in r) pages.push(r.page);
    else failures.push(r.failure);
  }
  return { pages, failures };
}
