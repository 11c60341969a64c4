import { buildBench } from './benchmark.ts';
import type { BenchStats } from './benchStats.ts';
import { prepareDocument, type PreparedDocument } from './prepare.ts';
import type { ScoringContext, Scored } from './context.ts';
import { scoreDoc, WEIGHTS } from './cqs.ts';
import { round1 } from './dimensions/helpers.ts';
import { buildDoc, parseContent, reparseChange } from './document.ts';
import { dimensionName } from './labels.ts';
import { buildRecommendations, type MeasuredFinding } from './recommendations.ts';
import { buildSummary } from './summary.ts';
import type { BenchmarkResult, Change, Dimension, EngineInput, EngineResult, Impact } from './types.ts';

/**
 * The engine's entry: content in, the engine's part of AuditResultV1 out. Pure and deterministic:
 * no clock, no randomness, no I/O; every sort has a tie-breaker.
 */

export { MAX_CONTENT_CHARS, MIN_MAIN_TEXT_CHARS } from './prepare.ts';

export interface AuditRun {
  result: EngineResult;
  /** Internals for tests and the benchmark: the scored document and the re-scoring function. */
  scored: Scored;
  /** Scores changed content; given the change that made it, it may reuse the original's extraction. */
  rescore: (content: string, change?: Change) => Scored;
}

/** The document scored against its benchmark, and what scored it (for the recommendations' deltas). */
const scoreOf = (input: EngineInput, prepared: PreparedDocument) => {
  const { language, an, lex, doc, kw } = prepared;
  const bench: BenchStats | null = input.benchmark ? buildBench(input.benchmark, doc, kw, an, lex) : null;
  const base: Omit<ScoringContext, 'profile'> = { an, lex, lang: language, kw, bench, selfShingles: null };
  return { bench, base, scored: scoreDoc(doc, base) };
};

/**
 * The scores alone, exactly the `scored` of runAudit on the same input: for callers that need a
 * CQS and not the result (apply's guard and measurement), which then skip the recommendations and
 * their deltas (one re-scoring each) and the competitors' scores, most of an audit's time.
 */
export const scoreContent = (input: EngineInput): Scored => scoreOf(input, prepareDocument(input)).scored;

/** `prepared`: prepareDocument(input) already made (the service prepares before it charges). */
export const runAudit = (input: EngineInput, prepared: PreparedDocument = prepareDocument(input)): AuditRun => {
  const { format, language, parsed, doc, an, keyword, csi, titleOverride } = prepared;
  const { bench, base, scored } = scoreOf(input, prepared);
  const rescore = (changed: string, change?: Change): Scored => {
    const p =
      (change && reparseChange(parsed, doc.content, changed, change)) || parseContent(changed, format, input.url);
    return scoreDoc(buildDoc(p, changed, an, input.url, titleOverride), base);
  };
  const { recs, measured } = buildRecommendations(scored, format, rescore, bench, WEIGHTS, base);

  const dimensions: Dimension[] = scored.outcomes.map((o) => ({
    id: o.id,
    name: dimensionName(o.id, language),
    score: o.score,
    summary: o.summary,
    strengths: o.strengths,
    problems: measured
      .filter((m) => m.dimension === o.id)
      .map((m) => ({
        title: m.finding.title,
        problem: m.finding.problem,
        suggestion: m.finding.suggestion,
        impact: impactOf(m),
        section: m.finding.section,
        actionType: m.rec?.actionType ?? m.finding.actionType,
      })),
  }));

  let benchmark: BenchmarkResult | null = null;
  let top10AvgCqs: number | null = null;
  if (bench && input.benchmark) {
    const compScores = bench.comps.map((c) => scoreDoc(c.doc, { ...base, selfShingles: c.shingles }).cqs);
    const top = compScores.slice(0, 10);
    top10AvgCqs = top.length ? round1(top.reduce((a, b) => a + b, 0) / top.length) : null;
    const byUrl = new Map(bench.comps.map((c, i) => [c.url, compScores[i] ?? null] as const));
    const excludedByUrl = new Map(bench.excluded.map((e) => [e.url, e.reason] as const));
    benchmark = {
      keyword,
      searchVolume: Math.round(input.benchmark.searchVolume),
      serpOrganicCount: Math.round(input.benchmark.serpOrganicCount),
      paa: input.benchmark.paa,
      related: input.benchmark.related,
      competitors: input.benchmark.competitors.map((c) => ({
        url: c.url,
        domain:
          bench.comps.find((x) => x.url === c.url)?.domain ?? bench.excluded.find((x) => x.url === c.url)?.domain ?? '',
        cqs: byUrl.get(c.url) ?? null,
        excluded: excludedByUrl.has(c.url),
        reason: excludedByUrl.get(c.url) ?? null,
      })),
    };
  }

  const counts = { critical: 0, high: 0, total: measured.length };
  for (const m of measured) {
    const imp = classOf(m);
    if (imp === 'critical') counts.critical++;
    else if (imp === 'high') counts.high++;
  }
  const result: EngineResult = {
    input: { url: input.url, keyword, language, project: null },
    scores: { cqs: scored.cqs, aiCitability: null },
    csi,
    dimensions,
    eeat: scored.eeat,
    recommendations: recs,
    benchmark,
    summary: buildSummary(scored.cqs, recs, counts, scored.profile, language, top10AvgCqs),
  };
  return { result, scored, rescore };
};

const classOf = (m: MeasuredFinding): 'critical' | 'high' | 'other' => {
  if (m.finding.gate || m.rec?.priority === 'critical') return 'critical';
  if (m.rec ? m.rec.priority === 'high' : m.finding.severity >= 0.5) return 'high';
  return 'other';
};

const impactOf = (m: MeasuredFinding): Impact => {
  const c = classOf(m);
  if (c !== 'other') return 'high';
  if (m.rec) return m.rec.priority === 'medium' ? 'medium' : 'low';
  return m.finding.severity >= 0.2 ? 'medium' : 'low';
};

/** The engine's entry point: the engine's part of AuditResultV1 for one piece of content. */
export const auditContent = (input: EngineInput): EngineResult => runAudit(input).result;
