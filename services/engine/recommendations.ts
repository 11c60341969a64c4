import { applyChange } from './apply.ts';
import type { BenchStats } from './benchStats.ts';
import type { Finding, Scored } from './context.ts';
import { round1 } from './dimensions/helpers.ts';
import { dimensionName, t } from './labels.ts';
import { brokenLinks, passageLinks } from './text/links.ts';
import type { Change, ContentFormat, DimensionId, Priority, Recommendation } from './types.ts';
import { DIMENSION_IDS } from './types.ts';

/**
 * Recommendations: every finding that carries a change is applied to the content and the result is
 * re-scored with the same function and the same SERP baseline; estimatedCqsDelta is the measured
 * CQS gain (unrounded CQS after − before, one decimal). Changes that do not raise CQS are dropped.
 * Priority: critical when the change lifts a gate or gains ≥5, high 2–5, medium 0.5–2, bonus < 0.5.
 * Order: priority, then gain, then dimension (in the contract's order), then position in the text.
 */

/** Upper bound on re-scorings per audit (keeps a 20,000-word audit well under its time budget). */
export const MAX_CANDIDATES = 18;

export interface MeasuredFinding {
  finding: Finding;
  dimension: DimensionId;
  rec: Recommendation | null;
}

const PRIORITY_RANK: Record<Priority, number> = { critical: 0, high: 1, medium: 2, bonus: 3 };

/** An author-data slot ("[fill in: …]"): such an AFTER is a request for the author's data, not pasteable text. */
export const AUTHOR_SLOT = /\[(?:fill in|uzupełnij):/u;

export const priorityOf = (delta: number, liftsGate: boolean): Priority =>
  liftsGate || delta >= 5 ? 'critical' : delta >= 2 ? 'high' : delta >= 0.5 ? 'medium' : 'bonus';

export const buildRecommendations = (
  scored: Scored,
  format: ContentFormat,
  rescore: (content: string, change?: Change) => Scored,
  bench: BenchStats | null,
  weights: Record<DimensionId, number>,
): { recs: Recommendation[]; measured: MeasuredFinding[] } => {
  const lang = scored.doc.language;
  const measured: MeasuredFinding[] = [];
  const seen = new Set<string>();
  const candidates: MeasuredFinding[] = [];
  for (const o of scored.outcomes) {
    for (const f of o.findings) {
      const m: MeasuredFinding = { finding: f, dimension: o.id, rec: null };
      measured.push(m);
      if (!f.change) continue;
      const key = JSON.stringify(f.change);
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push(m);
    }
  }
  const chosen = candidates
    .map((m, i) => ({ m, i, w: (m.finding.gate ? 10 : 0) + weights[m.dimension] * m.finding.severity }))
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .slice(0, MAX_CANDIDATES)
    .sort((a, b) => a.i - b.i);

  const recs: Recommendation[] = [];
  const links = passageLinks(scored.doc.blocks);
  const gated = scored.outcomes.filter((o) => o.cap !== null).map((o) => o.id);
  for (const { m } of chosen) {
    const change = m.finding.change!;
    let after: Scored;
    try {
      after = rescore(applyChange(scored.doc.content, format, change), change);
    } catch {
      continue;
    }
    const delta = round1(after.cqsRaw - scored.cqsRaw);
    if (delta <= 0) continue;
    // A change that separates a sentence from what it announces or refers to is not offered.
    if (brokenLinks(links, after.doc.blocks).length) continue;
    const liftsGate = m.finding.gate && gated.some((id) => after.outcomes.find((x) => x.id === id)?.cap === null);
    const dimBefore = scored.outcomes.find((x) => x.id === m.dimension)?.score ?? 0;
    const dimAfter = after.outcomes.find((x) => x.id === m.dimension)?.score ?? 0;
    const name = dimensionName(m.dimension, lang);
    const rec: Recommendation = {
      id: '',
      priority: priorityOf(delta, liftsGate),
      title: m.finding.title,
      dimension: m.dimension,
      actionType:
        change.kind === 'insert'
          ? 'add'
          : change.after === ''
            ? 'remove'
            : m.finding.actionType === 'add'
              ? 'replace'
              : m.finding.actionType,
      section: m.finding.section,
      before: change.kind === 'replace' ? change.before : '',
      after: change.after,
      insertAt: change.kind === 'insert' ? { placement: change.placement, anchor: change.anchor } : null,
      impact: t(
        lang,
        `${name}: ${dimBefore} → ${dimAfter}/10; CQS +${delta}${liftsGate ? ' (lifts a score cap)' : ''}.`,
        `${name}: ${dimBefore} → ${dimAfter}/10; CQS +${delta}${liftsGate ? ' (znosi limit wyniku)' : ''}.`,
      ),
      estimatedCqsDelta: delta,
      authorDataOnly: AUTHOR_SLOT.test(change.after),
      competitorUrls: bench
        ? m.finding.competitors
            .slice(0, 5)
            .map((i) => bench.comps[i])
            .filter((c) => c !== undefined)
            .map((c) => ({ url: c.url, domain: c.domain }))
        : [],
    };
    m.rec = rec;
    recs.push(rec);
  }
  const order = (r: Recommendation) => measured.find((x) => x.rec === r)?.finding.sectionIndex ?? 0;
  recs.sort(
    (a, b) =>
      PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
      b.estimatedCqsDelta - a.estimatedCqsDelta ||
      DIMENSION_IDS.indexOf(a.dimension) - DIMENSION_IDS.indexOf(b.dimension) ||
      order(a) - order(b) ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
  );
  recs.forEach((r, i) => {
    r.id = `rec:${i + 1}`;
  });
  return { recs, measured };
};
