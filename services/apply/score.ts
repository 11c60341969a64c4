import { scoreContent } from '../engine/audit.ts';
import type { SerpBenchmarkInput } from '../engine/types.ts';
import type { Scorer } from './rewrite.ts';

export interface ScoreBasis {
  keyword: string | null;
  language: string | null;
  url: string | null;
  /** The audit's kept SERP baseline (null: the audit had none). */
  benchmark: SerpBenchmarkInput | null;
}

// Scores only: the guard and the measurement read a CQS, never the recommendations.
const scored = (basis: ScoreBasis, markdown: string, title: string | null) =>
  scoreContent({
    content: markdown,
    format: 'markdown',
    title,
    url: basis.url,
    keyword: basis.keyword,
    language: basis.language,
    benchmark: basis.benchmark,
  });

/**
 * The CQS of a rewritten Markdown text as the measurement (2.6) reports it: the engine with the
 * audit's keyword, language and SERP baseline, rounded as every CQS the API shows.
 */
export const scoreMarkdown =
  (basis: ScoreBasis): Scorer =>
  (markdown, title) =>
    scored(basis, markdown, title).cqs;

/**
 * The same score before rounding, for the rewrite's guard: an item is kept only if it does not
 * lower this. Compared rounded, an item costing 0.4 could pass and several such items add up to a
 * lower measured CQS; compared unrounded, no kept item lowers it and so neither does the sum.
 */
export const guardScore = (basis: ScoreBasis): Scorer => {
  // The guard asks for some texts twice (the first item kept is the text it scored alone; a
  // description alone is the unchanged article): the engine is deterministic, so one guard (one
  // rewrite, one basis) scores each text once.
  const seen = new Map<string, number>();
  return (markdown, title) => {
    const key = JSON.stringify([markdown, title]);
    let cqs = seen.get(key);
    if (cqs === undefined) seen.set(key, (cqs = scored(basis, markdown, title).cqsRaw));
    return cqs;
  };
};
