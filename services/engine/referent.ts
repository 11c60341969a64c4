import type { Analyzer } from './document.ts';
import { unigramCounts } from './text/terms.ts';
import type { Doc } from './types.ts';

/**
 * Which thing the keyword's words name, judged from the SERP's consensus. The keyword's own stems
 * are left out (both meanings share them), also inside compounds; what remains is each page's
 * vocabulary, weighted √tf × log(1 + N/df) over the competitors. Centroids keep only what their
 * pages share (see `centroid`). A competitor whose similarity to the centroid of the others is
 * under 0.6 × the median of those similarities is an outlier: another referent. The consensus is
 * the centroid of the rest, the other referent that of the outliers, each without the words the
 * other uses. An article is about another referent when it is closer to the outliers' centroid
 * than to the consensus, or its similarity to the consensus is under 0.35 × the consensus pages'
 * own median. Without a SERP (or with fewer than 3 pages) the referent is unknown: nothing is
 * guessed.
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

export type ReferentVerdict =
  { status: 'unknown' } | { status: 'same' | 'other'; consensus: number; other: number; reference: number };

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

/**
 * What several pages agree on: the sum of their unit vectors, each term scaled by the share of the
 * other pages that also use it ((df − 1) / (n − 1)). A word only one page uses is that page's, not
 * the group's: left in, the many such words make the centroid so diffuse that any page on a
 * similar task (a how-to on another "battery") matches it through stray common words.
 */
const centroid = (vs: Vector[]): Vector => {
  const m: Vector = new Map();
  const df = new Map<string, number>();
  for (const v of vs)
    for (const [k, x] of unit(v)) {
      m.set(k, (m.get(k) ?? 0) + x);
      df.set(k, (df.get(k) ?? 0) + 1);
    }
  if (vs.length < 2) return m;
  const out: Vector = new Map();
  for (const [k, x] of m) {
    const d = df.get(k) ?? 1;
    if (d > 1) out.set(k, (x * (d - 1)) / (vs.length - 1));
  }
  return out;
};

export const cosine = (a: Vector, b: Vector): number => {
  let dot = 0,
    na = 0,
    nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

const MIN_PART = 4;

/**
 * Splits closed compounds into the words they are made of: the head part is a word of the SERP's
 * vocabulary or a keyword stem (a linking -s/-n/-en/-er/-es allowed), and the rest is a word of
 * the vocabulary too, or follows a keyword stem ("schimmelpilz" → "schimmel" + "pilz",
 * "schimmelfarb" → "schimmel" + "farb"). Without it, a language that writes compounds closed
 * (German) gives every page its own words for the shared subject, and the keyword hides inside
 * them instead of being left out. Parts have at least 4 letters; driven by the vocabulary, not by
 * the language, so it does nothing where no compounds are formed.
 */
const compoundSplitter = (vocab: Set<string>, keyword: Set<string>) => {
  const memo = new Map<string, string[]>();
  const known = (p: string) => vocab.has(p) || keyword.has(p);
  const split = (t: string): string[] => {
    const hit = memo.get(t);
    if (hit) return hit;
    let out = [t];
    if (t.length >= 2 * MIN_PART) {
      for (let i = MIN_PART; i <= t.length - MIN_PART; i++) {
        const tail = t.slice(i).replace(/^-/, '');
        let head = t.slice(0, i).replace(/-$/, '');
        if (tail.length < MIN_PART) continue;
        const headOk =
          known(head) ||
          (/[sn]$/.test(head) && known((head = head.slice(0, -1)))) ||
          (/en$|er$|es$/.test(t.slice(0, i)) && known((head = t.slice(0, i - 2))));
        if (!headOk) continue;
        if (known(tail) || keyword.has(head)) {
          out = [head, ...split(tail)];
          break;
        }
      }
    }
    memo.set(t, out);
    return out;
  };
  return split;
};

/** Unigram counts, compounds split, without the keyword's stems. */
const finalCounts = (
  raw: Map<string, number>,
  drop: Set<string>,
  split: (t: string) => string[],
): Map<string, number> => {
  const m = new Map<string, number>();
  for (const [k, n] of raw) for (const p of split(k)) if (!drop.has(p)) m.set(p, (m.get(p) ?? 0) + n);
  return m;
};

export const buildReferentModel = (pages: Doc[], an: Analyzer, keywordStems: string[]): ReferentModel | null => {
  if (pages.length < 3) return null;
  const drop = new Set(keywordStems);
  const raws = pages.map((d) => unigramCounts(d, an));
  const vocab = new Set<string>();
  for (const r of raws) for (const k of r.keys()) if (k.length >= MIN_PART) vocab.add(k);
  const split = compoundSplitter(vocab, drop);
  const raw = raws.map((r) => finalCounts(r, drop, split));
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
  let consensus = centroid(keep);
  let other = outliers.length ? centroid(outliers.map((i) => vs[i]!)) : null;
  if (other) {
    // Vocabulary both meanings use (the steps and tools of any how-to) says nothing about which
    // one a page means: each side keeps only the words the other side does not use.
    const o = other,
      c = consensus;
    consensus = new Map([...c].filter(([k]) => !o.has(k)));
    other = new Map([...o].filter(([k]) => !c.has(k)));
  }
  return {
    outliers,
    consensus,
    other,
    reference,
    weigh: (doc) => weighCounts(finalCounts(unigramCounts(doc, an), drop, split)),
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
