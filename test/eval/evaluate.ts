import { runAudit } from '../../services/engine/audit.ts';
import { createAnalyzer, parseContent } from '../../services/engine/document.ts';
import { buildBench } from '../../services/engine/benchmark.ts';
import { prepareDocument } from '../../services/engine/prepare.ts';
import { holdsHead } from '../../services/engine/headNoun.ts';
import { judgeReferent } from '../../services/engine/referent.ts';
import type { DimensionId, EngineResult } from '../../services/engine/types.ts';
import type { Half, Topic } from './corpus.ts';
import { checkRules, RULES, type Rule, type Violation } from './rules.ts';

/** One topic measured: the figures `npm run eval` prints (issue 12). */
export interface TopicEval {
  id: string;
  half: Half;
  strongCqs: number;
  poorCqs: number;
  otherCqs: number;
  /** Weakened dimensions (topic.json `weakens`): strong ≥ poor on each. */
  dims: { id: DimensionId | 'eeat'; strong: number; poor: number }[];
  otherCapped: boolean;
  /** The other-referent competitors are excluded from the benchmark (and so from top10AvgCqs). */
  otherCompExcluded: boolean;
  /** Included competitors wrongly excluded (intended referent). */
  wronglyExcluded: number;
  /** Strong and poor articles (intended referent) judged to be about another referent. */
  wronglyOther: string[];
  top10AvgCqs: number | null;
  /** Detected language of strong, poor, other (no language supplied). */
  languages: string[];
  languageRight: boolean;
  /** Auto-detected keywords of strong and poor, and whether each holds the head noun. */
  detectedKeywords: string[];
  headNounKept: boolean;
  violations: (Violation & { article: string })[];
}

const audit = (t: Topic, content: string) => runAudit({ content, url: null, keyword: t.keyword, benchmark: t.serp });

/** A weakened "dimension" may also be E-E-A-T (corpus-a's `eeat`): its average. */
const dimScore = (r: EngineResult, id: DimensionId | 'eeat') =>
  id === 'eeat' ? (r.eeat?.average ?? 0) : (r.dimensions.find((d) => d.id === id)?.score ?? 0);

export const evaluateTopic = (t: Topic): TopicEval => {
  const strong = audit(t, t.strong);
  const poor = audit(t, t.poor);
  const other = audit(t, t.other);
  const comps = strong.result.benchmark?.competitors ?? [];
  const otherCompExcluded =
    t.otherUrls.length > 0 && t.otherUrls.every((u) => comps.find((c) => c.url === u)?.excluded === true);
  const wronglyExcluded = comps.filter((c) => c.excluded && !t.otherUrls.includes(c.url)).length;
  // The verdict itself, not the CQS: a poor article capped for the wrong reason still scores low.
  const prepared = prepareDocument({ content: t.strong, url: null, keyword: t.keyword });
  const model = buildBench(t.serp, prepared.doc, prepared.kw, prepared.an, prepared.lex).referent;
  const wronglyOther = (
    [
      ['strong', strong],
      ['poor', poor],
    ] as const
  )
    .filter(([, r]) => judgeReferent(model, r.scored.doc).status === 'other')
    .map(([n]) => n);
  const languages = [t.strong, t.poor, t.other].map(
    (content) => prepareDocument({ content, url: null, keyword: t.keyword }).language,
  );
  const an = createAnalyzer(t.language);
  const heads = t.headNoun.toLowerCase().split('|').map(an.stem);
  const detectedKeywords: string[] = [];
  let headNounKept = true;
  for (const content of [t.strong, t.poor]) {
    let kw = '';
    try {
      kw = prepareDocument({ content, url: null, keyword: null }).keyword;
    } catch (e) {
      kw = `(${(e as { code?: string }).code ?? 'error'})`;
    }
    detectedKeywords.push(kw);
    const stems = kw
      .toLowerCase()
      .split(/[^\p{L}\p{N}-]+/u)
      .filter(Boolean)
      .map(an.stem);
    if (!heads.some((h) => holdsHead(stems, h, t.language))) headNounKept = false;
  }
  const violations: TopicEval['violations'] = [];
  const plainOf = (content: string) => parseContent(content, 'markdown', null);
  for (const [name, run, content] of [
    ['strong', strong, t.strong],
    ['poor', poor, t.poor],
    ['other', other, t.other],
  ] as const) {
    for (const v of checkRules(run, content, t.keyword, plainOf)) violations.push({ ...v, article: name });
  }
  return {
    id: t.id,
    half: t.half,
    strongCqs: strong.result.scores.cqs ?? 0,
    poorCqs: poor.result.scores.cqs ?? 0,
    otherCqs: other.result.scores.cqs ?? 0,
    dims: t.weakens.map((id) => ({ id, strong: dimScore(strong.result, id), poor: dimScore(poor.result, id) })),
    otherCapped: (other.result.scores.cqs ?? 0) <= 40,
    otherCompExcluded,
    wronglyExcluded,
    wronglyOther,
    top10AvgCqs: strong.result.summary?.top10AvgCqs ?? null,
    languages,
    languageRight: languages.every((l) => l === t.language),
    detectedKeywords,
    headNounKept,
    violations,
  };
};

export interface HalfSummary {
  half: Half;
  topics: number;
  strongBeatsPoor: number;
  dimsHeld: number;
  dimsTotal: number;
  otherCapped: number;
  otherCompExcluded: number;
  wronglyExcluded: number;
  wronglyOther: number;
  languageRight: number;
  headNounKept: number;
  violations: Record<Rule, number>;
}

export const summarise = (half: Half, evals: TopicEval[]): HalfSummary => {
  const violations = Object.fromEntries(RULES.map((r) => [r, 0])) as Record<Rule, number>;
  for (const e of evals) for (const v of e.violations) violations[v.rule]++;
  const dims = evals.flatMap((e) => e.dims);
  return {
    half,
    topics: evals.length,
    strongBeatsPoor: evals.filter((e) => e.strongCqs > e.poorCqs).length,
    dimsHeld: dims.filter((d) => d.strong >= d.poor).length,
    dimsTotal: dims.length,
    otherCapped: evals.filter((e) => e.otherCapped).length,
    otherCompExcluded: evals.filter((e) => e.otherCompExcluded).length,
    wronglyExcluded: evals.reduce((a, e) => a + e.wronglyExcluded, 0),
    wronglyOther: evals.reduce((a, e) => a + e.wronglyOther.length, 0),
    languageRight: evals.filter((e) => e.languageRight).length,
    headNounKept: evals.filter((e) => e.headNounKept).length,
    violations,
  };
};
