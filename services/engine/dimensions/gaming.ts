import type { Analyzer } from '../document.ts';
import { evidenceOf } from '../evidence.ts';
import { reportsOwnDoing } from '../firstHand.ts';
import { occurrences } from '../keyword.ts';
import { lexiconFor } from '../text/lexicon.ts';
import { capitalBalance } from '../text/nameCase.ts';
import type { Doc, KeywordInfo, Sentence } from '../types.ts';

/**
 * Signals of content written for the scorer rather than the reader (issue 24): keyphrase
 * occurrences that carry nothing else (stuffing, in text, bold lines and subheadings) and
 * paragraphs that carry no information about the subject (generic filler). Dimensions use them so
 * that neither earns credit: stuffed matches are not matches, filler words do not dilute a rate.
 */

export interface Gaming {
  /** Keyphrase uses in units (sentences, bold lines, subheadings) that say nothing else or say it twice. */
  stuffed: number;
  /** Stuffed uses beyond what natural writing shows (a short keyphrase sentence now and then). */
  excessStuffing: number;
  /** Sentences (by identity) that are stuffed: their keyphrase match is not counted. */
  stuffedSentences: Set<Sentence>;
  /**
   * Of them, those stuffed only because their paragraph had said the whole phrase already: the
   * sentence says something of its own ("… gar nicht erst zu viel zu trinken, dann braucht man
   * auch keine Hausmittel gegen Kater"), so the repeat is trimmed or reworded, never cut whole.
   */
  repeats: Set<Sentence>;
  /** Sentences of low-information paragraphs. */
  filler: Set<Sentence>;
  /**
   * Sentences of paragraphs that say nothing specific (no figure, no name, no word of the subject,
   * no pair of content words the rest of the page uses): they earn no term credit (tfidf).
   */
  unspecific: Set<Sentence>;
  /** Sentences of paragraphs generic by form (filler or not): sweeping or function words, no value. */
  generic: Set<Sentence>;
  /** Words of the filler sentences. */
  fillerWords: number;
  /** Words that carry the text: all words less the filler and the stuffed sentences. */
  informativeWords: number;
}

/** A unit is stuffing when the keyphrase is (almost) all it says, or it repeats the keyphrase. */
const MIN_OTHER_CONTENT = 2;

/** Uses of the keyphrase as a phrase: its content stems side by side (any order), not overlapping. */
export const phraseUses = (content: string[], kwStems: string[]): number => {
  const k = kwStems.length;
  if (!k) return 0;
  const need = new Set(kwStems);
  let n = 0;
  for (let i = 0; i + k <= content.length; i++) {
    const win = new Set(content.slice(i, i + k));
    if (win.size === k && [...win].every((c) => need.has(c))) {
      n++;
      i += k - 1;
    }
  }
  return n;
};

/** Uses of the keyword as typed, function words included ("what is a bond"), by stem sequence. */
export const verbatimUses = (stems: string[], kwSeq: string[]): number => {
  let n = 0;
  for (let i = 0; kwSeq.length && i + kwSeq.length <= stems.length; i++)
    if (kwSeq.every((k, j) => stems[i + j] === k)) {
      n++;
      i += kwSeq.length - 1;
    }
  return n;
};

/**
 * Whole-phrase uses in a unit: its content stems side by side; for a lone subject noun, which
 * natural prose repeats freely, the keyword as typed with its function words.
 */
const wholeUses = (u: { stems: string[] }, content: string[], kwStems: string[], kwSeq: string[]): number =>
  kwStems.length >= 2 ? phraseUses(content, kwStems) : kwSeq.length >= 2 ? verbatimUses(u.stems, kwSeq) : 0;

/** Where q stands in text as whole words (not the tail of a compound: "Wasserhahn wechseln"), or -1. */
const wordAt = (text: string, q: string): number => {
  for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + 1))
    if (!/[\p{L}\p{N}]/u.test(text.charAt(at - 1)) && !/[\p{L}\p{N}]/u.test(text.charAt(at + q.length))) return at;
  return -1;
};

/**
 * Prose sentences that hold the query as it is typed into a search box, outside quotation marks
 * ("„pompa ciepła opinie”" is a mention). verbatimQuery.ts asks for them to be rewritten.
 */
export const pastedQuery = (doc: Doc, query: string): Sentence[] => {
  const q = query.toLowerCase();
  return doc.sentences.filter((s) => {
    if (s.kind !== 'prose') return false;
    const low = s.text.toLowerCase();
    const at = wordAt(low, q);
    return at >= 0 && !/["„“”«»'‚‘]/u.test(low.slice(Math.max(0, at - 1), at));
  });
};

/**
 * A local keyword with its place last ("emergency plumber reading", "serwis klimatyzacji poznań",
 * "maler leipzig"): prose puts a preposition before the place ("in Reading", "w Poznaniu"), so the
 * query as typed, inside a sentence, is written for the scorer, wherever it stands.
 */
const pastedLocalQuery = (doc: Doc, kw: KeywordInfo): Sentence[] => {
  const words = kw.text.toLowerCase().split(/\s+/u).filter(Boolean);
  const place = words[words.length - 1] ?? '';
  if (kw.intent !== 'local' || words.length < 2 || kw.entity.toLowerCase().split(/\s+/u).includes(place)) return [];
  return pastedQuery(doc, kw.text);
};

/**
 * The query pasted in lower case where the page writes one of its words with a capital: "the
 * perth bus strike" on a page that says "Perth" in its own sentences, "hochwasser regen" in German
 * prose. A writer keeps a name's capital (in German, a noun's); a query copied from a search box
 * has none. Only a word the page's other sentences write capitalised more often than in lower case
 * ("Puma concolor" twice on a page that says "puma" throughout is no name of the subject).
 */
const pastedLowerCase = (doc: Doc, kw: KeywordInfo): Sentence[] => {
  const q = kw.text.toLowerCase();
  // Each pasted sentence with the query's words as it writes them, where it writes them in lower case.
  const lower = pastedQuery(doc, kw.text)
    .map((s) => {
      const at = wordAt(s.text.toLowerCase(), q);
      return { s, typed: s.text.slice(at, at + q.length) };
    })
    .filter((x) => x.typed === q);
  if (!lower.length) return [];
  const outside = new Set(lower.map((x) => x.s));
  const named = q.split(/\s+/u).filter((w) => w.length > 2 && capitalBalance(doc, w, outside) >= 1);
  return named.length ? lower.map((x) => x.s) : [];
};

const stuffedIn = (
  u: { stems: string[]; content: string[] },
  kwStems: string[],
  kwSeq: string[],
  joints: Set<string>,
): number => {
  const occ = occurrences(u, kwStems);
  if (!occ) return 0;
  const kw = new Set(kwStems);
  // The keyphrase's own joining words ("vs", "czy") are part of it, not something else said.
  const content = u.content.filter((c) => !joints.has(c));
  const other = content.filter((c) => !kw.has(c)).length;
  const whole = wholeUses(u, content, kwStems, kwSeq);
  // A unit that says nothing but the keyphrase: every use in it is stuffing.
  if (other < MIN_OTHER_CONTENT) return Math.max(1, whole);
  // Saying the whole phrase twice in one sentence is never natural: every use in it is stuffing
  // (a lone noun repeated is natural; the whole query repeated is not).
  return whole >= 2 ? whole : 0;
};

/**
 * A paragraph is low-information when it has no value (digit), does not name the keyphrase, fewer
 * than a quarter of its content words belong to the subject (the keyphrase's words, or the page's
 * own vocabulary: used in two other paragraphs or headings), and it is mostly function words.
 * Generic advice fits any page, so it has no anchor and few terms.
 */
const MIN_FILLER_WORDS = 25;
/** A paragraph standing alone between others is filler from this length (two short sentences). */
const SHORT_FILLER_WORDS = 15;
const ANCHOR_SHARE = 0.25;
/** Function-word share of generic prose; German's stop list is longer, so its share runs higher. */
const GENERIC_STOP_SHARE: Record<string, number> = { en: 0.45, pl: 0.36, de: 0.55 };
/** Sweeping words ("every", "always", "warto", "immer") that also make a paragraph generic by form. */
const GENERIC_MARKERS = 2;

/**
 * The length from which a paragraph can be filler. A short one (two sentences) is a unit of its own
 * only where nothing leans on it or it on something: not the answer to a question just asked, not
 * the lead-in of a list (":"), not a labelled note ("Note: …"), not the writer's own report ("we
 * paid for…", "kupiłam"); such a paragraph is judged from the long paragraphs' length.
 */
const minFillerWords = (doc: Doc, g: Sentence[], lang: string): number => {
  const first = g[0]!;
  const prev = doc.sections[first.section]?.blocks[first.block - 1];
  const text = g.map((s) => s.text).join(' ');
  const alone =
    prev !== undefined &&
    !/[?:]\s*$/u.test(prev.text) &&
    !/[?:]/u.test(text) &&
    !g.some((s) => reportsOwnDoing(s.text, lang));
  return alone ? SHORT_FILLER_WORDS : MIN_FILLER_WORDS;
};

/** Paragraphs of prose, by (section, block). */
const paragraphs = (doc: Doc): Sentence[][] => {
  const groups = new Map<string, Sentence[]>();
  for (const s of doc.sentences) {
    if (s.kind !== 'prose') continue;
    const k = `${s.section}:${s.block}`;
    const g = groups.get(k);
    if (g) g.push(s);
    else groups.set(k, [s]);
  }
  return [...groups.values()];
};

const fillerOf = (
  doc: Doc,
  kw: KeywordInfo,
  an: Analyzer,
  headings: { content: string[] }[],
): { filler: Set<Sentence>; fillerWords: number; generic: Set<Sentence> } => {
  const wordsOf = (g: Sentence[]) => g.reduce((a, s) => a + s.words.length, 0);
  const { generic: sweeping, instruction } = lexiconFor(an.lang);
  // Generic by form: long enough, no value, not naming the keyphrase, and mostly function words or
  // sweeping ("every", "always", "worth"): a claim about everything says nothing about the subject.
  // Support (a named quotation, a sourced figure, a citation) says something checkable: never filler.
  const support = evidenceOf(doc).sentences;
  const generic = (g: Sentence[]): boolean => {
    const words = wordsOf(g);
    if (words < minFillerWords(doc, g, an.lang)) return false;
    if (g.some((s) => /\p{N}/u.test(s.text) || support.has(s) || instruction?.test(s.text))) return false;
    if (kw.stems.every((k) => g.some((s) => s.content.includes(k)))) return false;
    const stopShare = g.reduce((a, s) => a + s.words.filter((w) => an.stop.has(w)).length, 0) / words;
    if (stopShare >= (GENERIC_STOP_SHARE[an.lang] ?? 0.45)) return true;
    return g.reduce((a, s) => a + (s.text.match(sweeping)?.length ?? 0), 0) >= GENERIC_MARKERS;
  };
  const groups = paragraphs(doc);
  const candidates = groups.filter(generic);
  // A paragraph's own prose judged apart from its support: a citation added to a generic paragraph
  // is evidence of its own (evidence.ts), and leaves the writer's sentences as generic as they were.
  const genericProse = groups.flatMap((g) => {
    if (candidates.includes(g)) return g;
    const own = g.filter((s) => !support.has(s));
    return own.length < g.length && own.length && generic(own) ? own : [];
  });
  // The page's vocabulary: content stems by the number of units (paragraphs, list items, table
  // rows, headings) using them, and by the specific ones among them (not generic by form). Generic
  // paragraphs do not vouch for each other alone: four of them all saying "thing" and "feel" make
  // those no subject words.
  const df = new Map<string, number>();
  const specific = new Set<string>();
  const addDf = (stems: Iterable<string>, isSpecific: boolean) => {
    for (const st of new Set(stems)) {
      df.set(st, (df.get(st) ?? 0) + 1);
      if (isSpecific) specific.add(st);
    }
  };
  for (const g of groups)
    addDf(
      g.flatMap((s) => s.content),
      !candidates.includes(g),
    );
  for (const s of doc.sentences) if (s.kind !== 'prose') addDf(s.content, true);
  for (const h of headings) addDf(h.content, true);
  const topic = new Set([...kw.stems, ...kw.entityStems]);
  const filler = new Set<Sentence>();
  let fillerWords = 0;
  for (const g of candidates) {
    const own = new Set(g.flatMap((s) => s.content));
    // Anchored: a word of the keyphrase, or one at least two other units use, a specific one among
    // them. Generic advice may say "time" in a page about the time change; it still has little else.
    const anchored = [...own].filter((c) => topic.has(c) || ((df.get(c) ?? 0) - 1 >= 2 && specific.has(c))).length;
    if (own.size && anchored / own.size < ANCHOR_SHARE) {
      for (const s of g) filler.add(s);
      fillerWords += wordsOf(g);
    }
  }
  return { filler, fillerWords, generic: new Set(genericProse) };
};

/** Adjacent content-stem pairs of a unit: how the page combines its words. */
const pairsOf = (units: { content: string[] }[]): Set<string> => {
  const out = new Set<string>();
  for (const u of units) for (let i = 0; i + 1 < u.content.length; i++) out.add(`${u.content[i]} ${u.content[i + 1]}`);
  return out;
};
/** A name after a sentence's first word: a capitalised word outside German, an acronym in German. */
const NAMED: Record<string, RegExp> = { de: /\p{Lu}{2,}/u };
const NAMED_DEFAULT = /\s\p{Lu}\p{L}/u;

/**
 * Paragraphs that say nothing specific: no figure, no name, no word of the keyphrase, the entity or
 * the section's heading, and not one pair of adjacent content words that another unit of the page
 * also uses. Text about the subject combines the page's words the way the page does ("water
 * pressure", "pressure gauge"); a generic paragraph fits any page, so even its SERP words ("people",
 * "options") stand alone.
 */
const unspecificOf = (doc: Doc, kw: KeywordInfo, an: Analyzer, headings: { content: string[] }[]): Set<Sentence> => {
  const topic = new Set([...kw.stems, ...kw.entityStems]);
  const named = NAMED[an.lang] ?? NAMED_DEFAULT;
  const headings_ = new Map<number, string[]>();
  const headingStems = (i: number): string[] => {
    let h = headings_.get(i);
    if (!h) headings_.set(i, (h = an.contentStems(doc.sections[i]?.heading?.text ?? '')));
    return h;
  };
  // Cheap tests first; the page's word pairs are counted only when a paragraph is left to judge.
  const candidates = paragraphs(doc).filter(
    (g) =>
      g.reduce((a, s) => a + s.words.length, 0) >= minFillerWords(doc, g, an.lang) &&
      !g.some((s) => /\p{N}/u.test(s.text) || named.test(s.text.replace(/^\S+/, ''))) &&
      // The subject: the keyphrase, the entity, or its own section's heading (a listicle's item).
      !g.some((s) => s.content.some((c) => topic.has(c) || headingStems(g[0]!.section).includes(c))),
  );
  const out = new Set<Sentence>();
  if (!candidates.length) return out;
  const units = [
    ...paragraphs(doc),
    ...doc.sentences.filter((s) => s.kind !== 'prose').map((s) => [s]),
    ...headings.map((h) => [h]),
  ];
  const df = new Map<string, number>();
  for (const u of units) for (const p of pairsOf(u)) df.set(p, (df.get(p) ?? 0) + 1);
  for (const g of candidates) {
    if ([...pairsOf(g)].some((p) => (df.get(p) ?? 0) >= 2)) continue;
    for (const s of g) out.add(s);
  }
  return out;
};

const cache = new WeakMap<Doc, Map<string, Gaming>>();

export const gamingOf = (doc: Doc, kw: KeywordInfo, an: Analyzer): Gaming => {
  const key = kw.stems.join(' ');
  let byKw = cache.get(doc);
  if (!byKw) cache.set(doc, (byKw = new Map()));
  const hit = byKw.get(key);
  if (hit) return hit;

  const joints = new Set(an.contentStems(kw.text).filter((c) => !kw.stems.includes(c)));
  const kwSeq = an.analyse(kw.text, 'list').flatMap((u) => u.stems);
  const stuffedSentences = new Set<Sentence>();
  const repeats = new Set<Sentence>();
  let stuffed = 0;
  // Per paragraph, the whole phrase is said once; a later sentence of the paragraph that says it
  // again repeats it where a pronoun would do, as writing for the scorer does.
  const named = new Set<string>();
  for (const s of doc.sentences) {
    const para = `${s.section}:${s.block}`;
    const whole =
      s.kind === 'prose'
        ? wholeUses(
            s,
            s.content.filter((c) => !joints.has(c)),
            kw.stems,
            kwSeq,
          )
        : 0;
    const own = stuffedIn(s, kw.stems, kwSeq, joints);
    const n = whole && named.has(para) ? Math.max(whole, own) : own;
    if (whole) named.add(para);
    if (n > 0) {
      stuffed += n;
      stuffedSentences.add(s);
      if (own === 0) repeats.add(s);
    }
  }
  for (const s of new Set([...pastedLocalQuery(doc, kw), ...pastedLowerCase(doc, kw)]))
    if (!stuffedSentences.has(s)) {
      stuffed += Math.max(1, occurrences(s, kw.stems));
      stuffedSentences.add(s);
    }
  // Subheadings: a heading that says the keyphrase twice is stuffing (both uses).
  let headingUses = 0;
  const headings = doc.sections.flatMap((sec) =>
    sec.heading && sec.heading.level >= 2 ? an.analyse(sec.heading.text, 'list') : [],
  );
  // A subheading naming the subject is natural; saying the phrase twice in one is not.
  for (const h of headings)
    headingUses +=
      Math.max(
        0,
        phraseUses(
          h.content.filter((c) => !joints.has(c)),
          kw.stems,
        ) - 1,
      ) * 2;
  stuffed += headingUses;

  const { filler, fillerWords, generic } = fillerOf(doc, kw, an, headings);
  const result: Gaming = {
    stuffed,
    excessStuffing: Math.max(0, stuffed - (2 + Math.floor(doc.words / 400))),
    stuffedSentences,
    repeats,
    filler,
    unspecific: unspecificOf(doc, kw, an, headings),
    generic,
    fillerWords,
    informativeWords: Math.max(
      1,
      doc.words - fillerWords - [...stuffedSentences].reduce((a, s) => a + (filler.has(s) ? 0 : s.words.length), 0),
    ),
  };
  byKw.set(key, result);
  return result;
};

/**
 * The sentences that earn no credit (no term, attribute or gap closed): filler, unspecific or
 * generic by form. Stuffed sentences are counted apart (their uses still count as over-use).
 */
export const creditless = (g: Gaming): Set<Sentence> => new Set([...g.filler, ...g.unspecific, ...g.generic]);

/** The sentences that carry nothing: filler, unspecific or keyword-stuffed. One owner for the rule. */
export const idleSentences = (g: Gaming): Set<Sentence> =>
  new Set([...g.filler, ...g.unspecific, ...g.stuffedSentences]);
