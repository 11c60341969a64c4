import { auditContent } from '../engine/audit.ts';
import type { SerpBenchmarkInput } from '../engine/types.ts';
import type { Scorer } from './rewrite.ts';

export interface ScoreBasis {
  keyword: string | null;
  language: string | null;
  url: string | null;
  /** The audit's kept SERP baseline (null: the audit had none). */
  benchmark: SerpBenchmarkInput | null;
}

/**
 * The CQS of a rewritten Markdown text as the measurement (2.6) takes it: the engine with the
 * audit's keyword, language and SERP baseline. The rewrite's guard uses the same function, so an
 * item it keeps never lowers what the measurement reports.
 */
export const scoreMarkdown =
  (basis: ScoreBasis): Scorer =>
  (markdown, title) =>
    auditContent({
      content: markdown,
      format: 'markdown',
      title,
      url: basis.url,
      keyword: basis.keyword,
      language: basis.language,
      benchmark: basis.benchmark,
    }).scores.cqs;
