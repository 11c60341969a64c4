import type { Doc, Sentence } from './types.ts';

/**
 * Evidence a reader (and an answer engine) can check, found by its form rather than by a magic
 * phrase (issue 24, after the GEO study): a quotation attributed to a named person, a figure with
 * its unit and a named source, and a citation (a reference in brackets, a "Source:" line, a link
 * out of the page). Each sentence counts once.
 */

export interface Evidence {
  quotes: Set<Sentence>;
  statistics: Set<Sentence>;
  citations: Set<Sentence>;
  /** Distinct sentences carrying any of them. */
  count: number;
}

// A quoted span of five words or more, between any pair of the usual quotation marks.
const QUOTE = /[“„«"‚‘]\s*(?:[^“”„«»"‚‘’\s]+\s+){4,}[^“”„«»"‚‘’]*[”»"’“‘]/u;
// Speech verbs in en/pl/de: who said it, not "according to".
const REPORTING =
  /\b(?:says?|said|explains?|explained|told|tells|notes?|noted|writes?|wrote|adds?|added|warns?|warned|recalls?|mówi|powiedział[a]?|twierdzi|wyjaśnia|wyjaśnił[a]?|zauważa|pisze|dodaje|ostrzega|przypomina|sagt|sagte|erklärt|erklärte|betont|meint|warnt|schreibt|ergänzt)\b/iu;
// Two capitalised words in a row ("Helen Carter"), anywhere after the sentence's first word.
const NAME = /\s\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?\s+\p{Lu}\p{Ll}+/u;
// A figure with a unit: a number followed by %, a currency, or a word of measure; or a currency first.
const FIGURE = /(?:[$€£]\s?\d|\d[\d.,\u00a0 ]*\s?(?:%|‰|[€$£]|zł|°|\p{L}{1,14}\b))/u;
// A named source: an acronym of three letters or more, or a camel-case name (NHS, CBOS, YouGov), or a research noun next to a
// capitalised name or a year.
const ORG = /(?<![\p{L}\p{N}])(?:\p{Lu}{3,}|\p{Lu}\p{Ll}+\p{Lu}\p{L}+)(?![\p{L}\p{N}])/u;
const STUDY =
  /\b(?:survey|study|report|census|poll|data|analysis|trial|badani\p{L}*|raport\p{L}*|sonda\p{L}*|dan\p{L}*|analiz\p{L}*|studie\p{L}*|umfrage\p{L}*|bericht\p{L}*|erhebung\p{L}*|daten|analyse\p{L}*)\b/iu;
const YEAR = /\b(?:19|20)\d\d\b/;
// Citations: "(Smith, 2021)", "(Smith et al. 2021)", "[3]", "Source: …", a link in the text.
const PAREN_REF = /\(\s*\p{Lu}[\p{L}.&\s-]{1,60},?\s*(?:et al\.?,?\s*)?(?:19|20)\d\d[a-z]?\s*\)|\[\d{1,3}\]/u;
const SOURCE_LINE = /^(?:sources?|źródł[oa]|quellen?|references?|bibliografia|literatur)\s*:/iu;

const cache = new WeakMap<Doc, Evidence>();

const isQuote = (text: string): boolean => QUOTE.test(text) && (REPORTING.test(text) || NAME.test(text));

const isStatistic = (text: string): boolean => {
  if (!FIGURE.test(text)) return false;
  const rest = text.replace(/^\S+\s*/, ''); // the first word is capitalised anyway
  return ORG.test(rest) || (STUDY.test(text) && (YEAR.test(text) || NAME.test(text)));
};

/** Link texts of the page that point out of it: a sentence holding one cites a source. */
const linkTexts = (doc: Doc): string[] =>
  doc.signals.links
    .filter((l) => !l.internal && l.rel !== 'site' && l.text.trim().length >= 3)
    .map((l) => l.text.trim());

export const evidenceOf = (doc: Doc): Evidence => {
  const hit = cache.get(doc);
  if (hit) return hit;
  const quotes = new Set<Sentence>();
  const statistics = new Set<Sentence>();
  const citations = new Set<Sentence>();
  const links = linkTexts(doc);
  for (const s of doc.sentences) {
    if (isQuote(s.text)) quotes.add(s);
    if (isStatistic(s.text)) statistics.add(s);
    if (PAREN_REF.test(s.text) || SOURCE_LINE.test(s.text.trim()) || links.some((l) => s.text.includes(l)))
      citations.add(s);
  }
  const count = new Set([...quotes, ...statistics, ...citations]).size;
  const e = { quotes, statistics, citations, count };
  cache.set(doc, e);
  return e;
};
