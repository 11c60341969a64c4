import type { Analyzer } from './document.ts';
import { termTable } from './text/terms.ts';
import type { Doc } from './types.ts';

/**
 * Which thing the keyword's words name, judged from the SERP's consensus. The keyword's own stems
 * are left out (both meanings share them); what remains is each page's vocabulary, weighted
 * √tf × log(1 + N/df) over the competitors. A competitor whose similarity to the centroid of the
 * others is under 0.6 × the median of those similarities is an outlier: another referent. The
 * consensus is the centroid of the rest. An article is about another referent when it is closer to
 * the outliers' centroid than to the consensus, or its similarity to the consensus is under 0.35 ×
 * the consensus pages' own median. Without a SERP (or with fewer than 3 pages) the referent is
 * unknown: nothing is guessed.
 */

export type Vector = Map<string, number>;

export interface ReferentModel {
  /** Indexes (into the pages given) of the outliers. */
  outliers: number[];
  consensus: Vector;
  other: Vector | null;
  /** Median similarity of the consensus pages to the centroid of the other consensus pages. */
  reference: number;
  weigh: (doc: Doc) => Vector;
}

export type ReferentVerdict = { status: 'unknown' } | { status: 'same' | 'other'; consensus: number; other: number; reference: number };

export const OUTLIER_RATIO = 0.6;
export const OFF_RATIO = 0.35;

const unit = (v: Vector): Vector => {
  let n = 0;
  for (const x of v.values()) n += x * x;
  n = Math.sqrt(n) || 1;
  const out: Vector = new Map();
  for (const [k, x] of v) out.set(k, x / n);
  return out;
};

const centroid = (vs: Vector[]): Vector => {
  const m: Vector = new Map();
  for (const v of vs) for (const [k, x] of unit(v)) m.set(k, (m.get(k) ?? 0) + x);
  return m;
};

export const cosine = (a: Vector, b: Vector): number => {
  let dot = 0, na = 0, nb = 0;
  for (const [k, v] of a) { na += v * v; const w = b.get(k); if (w) dot += v * w; }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Unigram counts without the keyword's stems. */
const counts = (doc: Doc, an: Analyzer, drop: Set<string>): Map<string, number> => {
  const m = new Map<string, number>();
  for (const [k, n] of termTable(doc, an, false).counts) if (!k.includes(' ') && !drop.has(k)) m.set(k, n);
  return m;
};

export const buildReferentModel = (pages: Doc[], an: Analyzer, keywordStems: string[]): ReferentModel | null => {
  if (pages.length < 3) return null;
  const drop = new Set(keywordStems);
  const raw = pages.map((d) => counts(d, an, drop));
  const N = raw.length;
  const df = new Map<string, number>();
  for (const c of raw) for (const k of c.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const weighCounts = (c: Map<string, number>): Vector => {
    const v: Vector = new Map();
    for (const [k, n] of c) v.set(k, Math.sqrt(n) * Math.log(1 + N / (df.get(k) ?? 0.5)));
    return v;
  };
  const vs = raw.map(weighCounts);
  const loo = vs.map((v, i) => cosine(v, centroid(vs.filter((_, j) => j !== i))));
  const med = median(loo);
  const outliers = loo.map((s, i) => (s < OUTLIER_RATIO * med ? i : -1)).filter((i) => i >= 0);
  // An outlier is a minority by definition: never more than a third of the pages.
  if (outliers.length > Math.floor(N / 3)) outliers.length = 0;
  const keep = vs.filter((_, i) => !outliers.includes(i));
  const keepIdx = vs.map((_, i) => i).filter((i) => !outliers.includes(i));
  const reference = median(keepIdx.map((i) => cosine(vs[i]!, centroid(keep.filter((_, j) => keepIdx[j] !== i)))));
  return {
    outliers,
    consensus: centroid(keep),
    other: outliers.length ? centroid(outliers.map((i) => vs[i]!)) : null,
    reference,
    weigh: (doc) => weighCounts(counts(doc, an, drop)),
  };
};

export const judgeReferent = (model: ReferentModel | null, doc: Doc): ReferentVerdict => {
  if (!model || model.reference <= 0) return { status: 'unknown' };
  const v = model.weigh(doc);
  const consensus = cosine(v, model.consensus);
  const other = model.other ? cosine(v, model.other) : 0;
  const off = other > consensus || consensus < OFF_RATIO * model.reference;
  return { status: off ? 'other' : 'same', consensus, other, reference: model.reference };
};
