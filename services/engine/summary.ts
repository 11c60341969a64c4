import { profileLabel } from './labels.ts';
import { isFullySupported } from './text/lexicon.ts';
import type { ProfileId, Recommendation, SummaryCard } from './types.ts';

/**
 * The summary card (spec 2.3): status by the CQS thresholds, the competitors' average, problem
 * counts, the top change, the content profile and up to three quick wins (small replacements or
 * removals that raise CQS, largest gain first; author-data requests are no quick win).
 */

export const statusOf = (cqs: number): SummaryCard['status'] => (cqs >= 75 ? 'ok' : cqs >= 50 ? 'warn' : 'critical');

export const buildSummary = (
  cqs: number,
  recs: Recommendation[],
  problems: { critical: number; high: number; total: number },
  profile: ProfileId,
  lang: string,
  top10AvgCqs: number | null,
): SummaryCard => {
  // In the result's order (priority, then gain): the summary never ranks two changes otherwise than
  // the list it points into (a gate lift of +0.4 stays above a +3 it outranks there).
  const quick = recs
    .filter(
      (r) => (r.actionType === 'replace' || r.actionType === 'remove') && r.estimatedCqsDelta > 0 && !r.authorDataOnly,
    )
    .slice(0, 3)
    .map((r) => ({ id: r.id, label: r.title, source: 'recommendation' as const, dimension: r.dimension }));
  return {
    status: statusOf(cqs),
    top10AvgCqs,
    problemCounts: problems,
    // The first of the result: ids and order are the result's (rec:1 is the change that matters most).
    topChange: recs[0] ?? null,
    profile: { id: profile, label: profileLabel(profile, lang) },
    quickWins: quick,
    languageSupport: isFullySupported(lang) ? 'full' : 'partial',
  };
};
