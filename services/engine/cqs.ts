import type { DimensionOutcome, Scored, ScoringContext } from './context.ts';
import { scoreBluf } from './dimensions/bluf.ts';
import { scoreChunk } from './dimensions/chunk.ts';
import { scoreCor } from './dimensions/cor.ts';
import { scoreCsiAlignment } from './dimensions/csiAlignment.ts';
import { keywordDensity, scoreDensity } from './dimensions/density.ts';
import { scoreEav } from './dimensions/eav.ts';
import { scoreEffort } from './dimensions/effort.ts';
import { scoreQueryFanout } from './dimensions/queryFanout.ts';
import { scoreSrl } from './dimensions/srl.ts';
import { scoreTfidf } from './dimensions/tfidf.ts';
import { scoreEeatDetail } from './eeat.ts';
import { classifyProfile } from './profile.ts';
import { DIMENSION_IDS, type DimensionId, type Doc } from './types.ts';

/**
 * CQS = 0.85 × 10 × Σ wᵢdᵢ (= 8.5 × Σ wᵢdᵢ, at most 85) (dimensions 0-10, weights summing to 1) plus
 * 1.5 × the E-E-A-T average, 0-100. Gates: csiAlignment below 3 (different referent) caps it at
 * 40, keyword density over 4% at 60, fewer than 150 words at 30.
 */

export const WEIGHTS: Record<DimensionId, number> = {
  csiAlignment: 0.14,
  tfidf: 0.12,
  queryFanout: 0.12,
  bluf: 0.1,
  chunk: 0.1,
  eav: 0.1,
  effort: 0.1,
  cor: 0.08,
  density: 0.07,
  srl: 0.07,
};
export const DIMENSIONS_SHARE = 0.85;
export const EEAT_SHARE = 0.15;
export const MIN_WORDS = 150;
export const SHORT_CAP = 30;

const SCORERS: Record<DimensionId, (doc: Doc, ctx: ScoringContext) => DimensionOutcome> = {
  csiAlignment: scoreCsiAlignment,
  density: scoreDensity,
  eav: scoreEav,
  bluf: scoreBluf,
  chunk: scoreChunk,
  cor: scoreCor,
  tfidf: scoreTfidf,
  srl: scoreSrl,
  queryFanout: scoreQueryFanout,
  effort: scoreEffort,
};

export const scoreDoc = (doc: Doc, base: Omit<ScoringContext, 'profile'>): Scored => {
  const profile = classifyProfile(doc, base.lex);
  const ctx: ScoringContext = { ...base, profile };
  // In the contract's order (types.ts DIMENSION_IDS).
  const outcomes = DIMENSION_IDS.map((id) => SCORERS[id](doc, ctx));
  const { eeat, exact } = scoreEeatDetail(doc, ctx);
  const weighted = outcomes.reduce((a, o) => a + WEIGHTS[o.id] * o.score, 0);
  let raw = DIMENSIONS_SHARE * 10 * weighted + EEAT_SHARE * 10 * exact;
  for (const o of outcomes) if (o.cap !== null) raw = Math.min(raw, o.cap);
  if (doc.words < MIN_WORDS) raw = Math.min(raw, SHORT_CAP);
  raw = Math.max(0, Math.min(100, raw));
  return {
    doc,
    outcomes,
    eeat,
    cqsRaw: raw,
    cqs: Math.round(raw),
    profile,
    keywordDensity: keywordDensity(doc, base.kw.stems, base.an, base.kw).kd,
  };
};
