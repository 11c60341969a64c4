import type { Analyzer } from './document.ts';
import { bestSurface, unigramCounts } from './text/terms.ts';
import type { Doc } from './types.ts';

/**
 * Which thing the keyword's words name, decided by the SERP's majority. Each page is described by
 * what it is about (`pageCounts`: its words, those of its title and headings, those said beside
 * the keyword, the names it gives), without the keyword's own stems (both meanings share them),
 * also inside compounds, weighted √count × log(1 + N/df) over the results. The results are grouped
 * by their pairwise similarity (`minorityOf`); a strict minority that is far from the majority is
 * another referent. The consensus is the centroid of the majority, the other referent that of the
 * minority, each without the words the other uses. A page is about another referent when it is
 * closer to the minority's centroid than to the consensus, or, when the results agree on one
 * meaning, its similarity to the consensus is under 0.35 × the consensus pages' own median. Without
 * a SERP (or with fewer than 3 pages) the referent is unknown: nothing is guessed.
 */

export type Vector = Map<string, number>;
type Surfaces = Map<string, Map<string, number>>;

export interface ReferentModel {
  /** Indexes (into the pages given) of the outliers. */
  outliers: number[];
  consensus: Vector;
  other: Vector | null;
  /** The words that most set each side apart, as the pages write them (for the reasons shown). */
  consensusWords: string[];
  otherWords: string[];
  /** Median similarity of the consensus pages to the centroid of the other consensus pages. */
  reference: number;
  /** A page weighed as the results are, with the surface forms of its words. */
  weigh: (doc: Doc) => { v: Vector; surfaces: Surfaces };
}

export type ReferentVerdict =
  | { status: 'unknown' }
  | {
      status: 'same' | 'other';
      consensus: number;
      other: number;
      reference: number;
      /** The page's words that weigh most where it parts from the consensus, as written. */
      words: string[];
    };

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

/** Extra weight of a word in the title, the H1 or a subheading: what the page says it is about. */
export const HEADING_WEIGHT = 3;
/** Extra weight of a word in a sentence that names the keyword: what the keyword goes with. */
export const COLLOCATE_WEIGHT = 1;
/** Extra weight of a proper name or acronym inside a sentence: the entities the page names. */
export const ENTITY_WEIGHT = 1;

const NAME = /(?<=[\p{L}\p{N},;:)] +)\p{Lu}[\p{L}\p{N}-]*/gu;
const ACRONYM = /\b\p{Lu}{2,}\b/gu;

/** Lower-cased names a sentence holds (not its first word; in German only acronyms: every noun is capitalised). */
const namesOf = (text: string, lang: string): string[] =>
  [...text.matchAll(lang === 'de' ? ACRONYM : NAME)].map((m) => m[0].toLowerCase());

/**
 * What a page is about, as weighted stem counts: every content word once, plus the words of its
 * title, H1 and subheadings (and the SERP's title for it), the words said in the same sentence as
 * the keyword, and the names it gives. Terms, zones and entities together, so two pages that share
 * a procedure's vocabulary but name different things in their headings and beside the keyword
 * fall apart.
 */
const pageCounts = (
  doc: Doc,
  an: Analyzer,
  serpTitle: string | null,
  kwStems: Set<string>,
  surfaces: Map<string, Map<string, number>>,
): Map<string, number> => {
  const counts = unigramCounts(doc, an);
  for (const s of doc.sentences)
    s.words.forEach((w, i) => {
      const k = s.stems[i] ?? w;
      if (!counts.has(k)) return;
      let m = surfaces.get(k);
      if (!m) surfaces.set(k, (m = new Map()));
      m.set(w, (m.get(w) ?? 0) + 1);
    });
  const add = (stem: string, w: number) => counts.set(stem, (counts.get(stem) ?? 0) + w);
  const isTerm = (w: string) => w.length > 2 && !an.stop.has(w) && !/\p{N}/u.test(w);
  const zone = [
    doc.title,
    doc.h1,
    serpTitle ?? '',
    ...doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text),
  ];
  for (const text of new Set(zone.filter(Boolean)))
    for (const s of an.analyse(text, 'list'))
      s.words.forEach((w, i) => isTerm(w) && add(s.stems[i] ?? w, HEADING_WEIGHT));
  for (const s of doc.sentences) {
    if (s.stems.some((st) => kwStems.has(st)))
      s.words.forEach((w, i) => isTerm(w) && add(s.stems[i] ?? w, COLLOCATE_WEIGHT));
    for (const name of namesOf(s.text, an.lang)) if (isTerm(name)) add(an.stem(name), ENTITY_WEIGHT);
  }
  return counts;
};

/** Mean of the pairwise similarities between two groups (or within one). */
const linkage = (sim: number[][], a: number[], b: number[]): number => {
  let sum = 0,
    n = 0;
  for (const i of a)
    for (const j of b)
      if (i !== j) {
        sum += sim[i]?.[j] ?? 0;
        n++;
      }
  return n ? sum / n : 0;
};

/**
 * The pages grouped by what they are about: average-linkage clustering of their pairwise
 * similarities down to two groups. The smaller group is another referent when it is a strict
 * minority and what joins it to the majority is under OUTLIER_RATIO × what holds the majority
 * together; otherwise all pages mean one thing.
 */
export const minorityOf = (sim: number[][]): number[] => {
  const n = sim.length;
  let groups = Array.from({ length: n }, (_, i) => [i]);
  while (groups.length > 2) {
    let best = [-1, -1, -Infinity] as [number, number, number];
    for (let a = 0; a < groups.length; a++)
      for (let b = a + 1; b < groups.length; b++) {
        const l = linkage(sim, groups[a]!, groups[b]!);
        if (l > best[2]) best = [a, b, l];
      }
    const [a, b] = best;
    groups = [...groups.filter((_, i) => i !== a && i !== b), [...groups[a]!, ...groups[b]!]];
  }
  const [x, y] = [...groups].sort((p, q) => p.length - q.length || p[0]! - q[0]!) as [number[], number[]];
  if (x.length * 2 >= n) return [];
  const within = linkage(sim, y, y);
  return linkage(sim, x, y) < OUTLIER_RATIO * within ? [...x].sort((a, b) => a - b) : [];
};

/** The n terms of v that weigh most, as the pages write them. */
const topWords = (v: Vector, surfaces: Surfaces, n: number): string[] =>
  [...v]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => bestSurface(surfaces.get(k), k));

export const buildReferentModel = (
  pages: Doc[],
  an: Analyzer,
  keywordStems: string[],
  serpTitles: (string | null)[] = [],
): ReferentModel | null => {
  if (pages.length < 3) return null;
  const drop = new Set(keywordStems);
  const surfaces: Surfaces = new Map();
  const raws = pages.map((d, i) => pageCounts(d, an, serpTitles[i] ?? null, drop, surfaces));
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
  const outliers = minorityOf(vs.map((a) => vs.map((b) => cosine(a, b))));
  const keepIdx = vs.map((_, i) => i).filter((i) => !outliers.includes(i));
  const keep = keepIdx.map((i) => vs[i]!);
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
    consensusWords: other ? topWords(consensus, surfaces, 4) : [],
    otherWords: other ? topWords(other, surfaces, 4) : [],
    reference,
    weigh: (doc) => {
      const own: Surfaces = new Map();
      return { v: weighCounts(finalCounts(pageCounts(doc, an, null, drop, own), drop, split)), surfaces: own };
    },
  };
};

/**
 * The page judged against the SERP's meaning. When the results split, the page goes with the side
 * it is closer to; when they agree, a page far from all of them is about something else.
 */
export const judgeReferent = (model: ReferentModel | null, doc: Doc): ReferentVerdict => {
  if (!model || model.reference <= 0) return { status: 'unknown' };
  const { v, surfaces } = model.weigh(doc);
  const consensus = cosine(v, model.consensus);
  const other = model.other ? cosine(v, model.other) : 0;
  const off = model.other ? other > consensus : consensus < OFF_RATIO * model.reference;
  // Its words of the other side (or, without one, those the majority does not use) say what the
  // page is about instead.
  const own = new Map([...v].filter(([k]) => (model.other ? model.other.has(k) : !model.consensus.has(k))));
  return {
    status: off ? 'other' : 'same',
    consensus,
    other,
    reference: model.reference,
    words: topWords(own, surfaces, 4),
  };
};
