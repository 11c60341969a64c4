import type { Analyzer } from './document.ts';
import { cosine, median, type Vector } from './referentGroups.ts';
import { outliersOf, queryConfirms, queryCounts, QUESTIONS_CONFIRM } from './referentVote.ts';
import { headlinedApart } from './referentHeadline.ts';
import { namedApart } from './referentNames.ts';
import { compoundsApart } from './referentCompounds.ts';
import { bestSurface, unigramCounts } from './text/terms.ts';
import type { Doc } from './types.ts';

export { cosine, minorityOf, OUTLIER_RATIO, type Vector } from './referentGroups.ts';

/**
 * Which thing the keyword's words name, decided by the SERP's majority. Each page is described by
 * what it is about (`pageCounts`: its words, those of its title and headings, those said beside
 * the keyword, the names it gives), without the keyword's own stems (both meanings share them),
 * also inside compounds, weighted √count × log(1 + N/df) over the results. The results that say
 * something are grouped by their pairwise similarity (`minorityOf`); a strict minority that is far
 * from the majority is another referent. The SERP's People Also Ask questions and related searches,
 * weighed the same way, vote when fewer than four results do and must agree with what the results
 * decide (`referentVote.ts`). The consensus is the centroid of the majority, the other referent that of the
 * minority, each without the words the other uses. A page is about another referent when it is
 * closer to the minority's centroid than to the consensus, or, when the results agree on one
 * meaning, its similarity to the consensus is under 0.35 × the consensus pages' own median. Without
 * a SERP (or with fewer than 3 pages) the referent is unknown: nothing is guessed.
 */

type Surfaces = Map<string, Map<string, number>>;

export interface ReferentModel {
  /** Indexes (into the pages given) of the outliers. */
  outliers: number[];
  /** What set them apart: the pages' words, the names they give, their headline word or their compounds. */
  view: 'words' | 'names' | 'headline' | 'compounds' | null;
  consensus: Vector;
  other: Vector | null;
  /** The words that most set each side apart, as the pages write them (for the reasons shown). */
  consensusWords: string[];
  otherWords: string[];
  /** Median similarity of the consensus pages to the centroid of the other consensus pages. */
  reference: number;
  /** The results' median vocabulary (distinct content stems, the keyword's left out); 0 under four results. */
  vocabulary: number;
  /** The SERP's questions and related searches weighed as the results are (empty without them). */
  query: Vector;
  /** Median similarity of the consensus pages to the query. */
  queryReference: number;
  /** A page weighed as the results are, with the surface forms of its words. */
  weigh: (doc: Doc) => { v: Vector; surfaces: Surfaces; vocabulary: number };
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

export const OFF_RATIO = 0.35;
/**
 * One headline word is thin evidence (a page on a kind of the same thing has one too: a wall-mounted
 * tap among sink taps): the questions must put the page clearly below the others, not just below
 * their median.
 */
export const HEADLINE_CONFIRM = 0.75;
/**
 * A page says enough to be judged about another thing when its vocabulary is at least this share
 * of the results' median. A thin page (a short, generic, keyword-padded one) is far from every
 * result for want of words, not for other words: it was set apart as "another referent" in SERPs
 * of intended pages only, or in place of the other meaning (precision first: it is kept and judged
 * the same).
 */
export const SAYS_ENOUGH = 0.9;
const MIN_FOR_VOCABULARY = 4;

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
  local = false,
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
    // A local service's pages name the districts each one serves: no extra weight for which.
    if (!local) for (const name of namesOf(s.text, an.lang)) if (isTerm(name)) add(an.stem(name), ENTITY_WEIGHT);
  }
  return counts;
};

/** The n terms of v that weigh most, as the pages write them. */
const topWords = (v: Vector, surfaces: Surfaces, n: number): string[] =>
  [...v]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => bestSurface(surfaces.get(k), k));

/** What the SERP says beside its pages: their SERP titles, its questions and searches, how much each page says. */
export interface SerpSignals {
  /** The SERP's title for each page. */
  titles?: (string | null)[];
  /** People Also Ask questions and related searches. */
  query?: string[];
  /** People Also Ask questions alone: what people ask about the dominant meaning. */
  questions?: string[];
  /** Per page, the share of its words that are informative (not keyword-stuffed, not filler). */
  informative?: number[];
}

export const buildReferentModel = (
  pages: Doc[],
  an: Analyzer,
  keywordStems: string[],
  serp: SerpSignals = {},
  local = false,
): ReferentModel | null => {
  if (pages.length < 3) return null;
  const drop = new Set(keywordStems);
  const surfaces: Surfaces = new Map();
  const raws = pages.map((d, i) => pageCounts(d, an, serp.titles?.[i] ?? null, drop, surfaces, local));
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
  const queryStems = finalCounts(queryCounts(serp.query ?? [], an), drop, split);
  const query = weighCounts(queryStems);
  const voted = outliersOf(vs, serp.informative ?? [], query);
  // Where the words do not set a page apart, the names it gives may (referentNames.ts), or the
  // thing its headings and most used words name that no other result names (referentHeadline.ts,
  // which the questions must confirm); in German, which names kinds in compounds, the compounds it
  // makes of the keyword first (referentCompounds.ts). The headline view reads the People Also Ask
  // questions alone where there are any: related searches are refinements of the query, and a
  // refinement may name the other meaning ("… on a motorbike") as readily as a kind of this one.
  const headlined = (): number[] => {
    const asked = serp.questions?.length ? finalCounts(queryCounts(serp.questions, an), drop, split) : queryStems;
    const apart = headlinedApart(pages, an, keywordStems, serp.titles ?? [], new Set(asked.keys()));
    const all = vs.map((_, i) => i);
    const ask = weighCounts(asked);
    return apart.length && (ask.size === 0 || queryConfirms(vs, all, apart, ask, HEADLINE_CONFIRM)) ? apart : [];
  };
  const views: [NonNullable<ReferentModel['view']>, () => number[]][] = [
    ['words', () => voted],
    an.lang === 'de'
      ? ['compounds', () => compoundsApart(pages, an, keywordStems)]
      : ['names', () => namedApart(pages, an, keywordStems)],
    ['headline', headlined],
  ];
  // With three results the median is one page's size, not the SERP's (a page on the other meaning
  // may be shorter than a long guide and a padded page): no bar then.
  const vocabulary = raw.length >= MIN_FOR_VOCABULARY ? median(raw.map((r) => r.size)) : 0;
  const saysEnough = (i: number) => raw[i]!.size >= SAYS_ENOUGH * vocabulary;
  let view: ReferentModel['view'] = null;
  let outliers: number[] = [];
  for (const [name, find] of views) {
    outliers = find().filter(saysEnough);
    if (outliers.length) {
      view = name;
      break;
    }
  }
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
    view,
    consensus,
    other,
    consensusWords: other ? topWords(consensus, surfaces, 4) : [],
    otherWords: other ? topWords(other, surfaces, 4) : [],
    reference,
    vocabulary,
    query,
    queryReference: median(keepIdx.map((i) => cosine(vs[i]!, query))),
    weigh: (doc) => {
      const own: Surfaces = new Map();
      const counts = finalCounts(pageCounts(doc, an, null, drop, own, local), drop, split);
      return { v: weighCounts(counts), surfaces: own, vocabulary: counts.size };
    },
  };
};

/**
 * Under four results the consensus is two or three pages' shared words, and a thin page on the same
 * thing is far from it for want of words (no vocabulary bar there): the SERP's questions must put
 * the page far from the query too (under QUESTIONS_CONFIRM × the results' median), as a page on
 * another thing is.
 */
const farFromQuestions = (model: ReferentModel, v: Vector): boolean =>
  model.vocabulary > 0 || model.query.size === 0 || cosine(v, model.query) < QUESTIONS_CONFIRM * model.queryReference;

/**
 * The page judged against the SERP's meaning. When the results split, the page goes with the side
 * it is closer to; when they agree, a page far from all of them is about something else.
 */
export const judgeReferent = (model: ReferentModel | null, doc: Doc): ReferentVerdict => {
  if (!model || model.reference <= 0) return { status: 'unknown' };
  const { v, surfaces, vocabulary } = model.weigh(doc);
  const consensus = cosine(v, model.consensus);
  const other = model.other ? cosine(v, model.other) : 0;
  const off =
    vocabulary >= SAYS_ENOUGH * model.vocabulary &&
    (model.other ? other > consensus : consensus < OFF_RATIO * model.reference && farFromQuestions(model, v));
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
