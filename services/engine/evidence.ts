import { citesMore, NAME, namesSourceMore, REPORTING, spanningQuotes } from './evidenceForms.ts';
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
  sentences: Set<Sentence>;
  count: number;
}

// A quoted span of five words or more, between any pair of the usual quotation marks.
const QUOTE = /[“„«"‚‘]\s*(?:[^“”„«»"‚‘’\s]+\s+){4,}[^“”„«»"‚‘’]*[”»"’“‘]/u;
// A figure with a unit: a number followed by %, a currency, or a word of measure; or a currency first.
const FIGURE = /(?:[$€£]\s?\d|\d[\d.,\u00a0 ]*\s?(?:%|‰|[€$£]|zł|°|\p{L}{1,14}\b))/u;
// A named source: an acronym of three letters or more, or a camel-case name (NHS, CBOS, YouGov).
const ORG = /(?<![\p{L}\p{N}])(?:\p{Lu}{3,}|\p{Lu}\p{Ll}+\p{Lu}\p{L}+)(?![\p{L}\p{N}])/u;
// A standard by its identifier: "ISO 4032", "DIN EN ISO 6789", "PN-EN 817", "EN 16798-1".
const STANDARD = /(?<![\p{L}\p{N}])(?:ISO|DIN|EN|PN|BS|ASTM|IEC|ANSI|ÖNORM)(?:[-\s](?:EN|ISO|IEC))*[-\s]\d{2,}/u;
// An institution or a publication named by its own (capitalised) word, German compounds included:
// "Energy Saving Trust", "Bundesinstitut", "Zentralverbands", "Polskiego Towarzystwa".
const INSTITUTION =
  /(?<![\p{L}])\p{Lu}\p{Ll}*(?:institut|institute|agency|agencj|association|trust|universit|ministr|ministerium|department|office|foundation|fundacj|society|council|commission|federation|federacj|organi[sz]ation|authority|academy|akademi|journal|towarzystw|stowarzyszen|izb[aiy]|urz[ąę]d|instytut|fundusz|verband|verbands|stiftung|gesellschaft|kammer|amt|zentrale|regulations|guide)\p{L}*/u;
// A proper name of two capitalised words or more after the sentence's first word ("Test Kitchen").
// German capitalises every noun, so there it is no sign of a name.
const PROPER = /[\s’'](?:\p{Lu}[\p{Ll}’']+\s+){1,}\p{Lu}\p{Ll}+/u;
const STUDY =
  /(?<![\p{L}])(?:survey|study|studies|report|census|poll|data|analysis|trial|testing|badani\p{L}*|bada[ńn]|rapor\p{L}*|sonda\p{L}*|dan[eyi]\p{L}*|analiz\p{L}*|studie\p{L}*|umfrage\p{L}*|bericht\p{L}*|erhebung\p{L}*|daten|angaben|analyse\p{L}*)(?![\p{L}])/iu;
const YEAR = /\b(?:19|20)\d\d\b/;
// What a cited source does with the claim: its document, or a verb of stating or advising.
const CITED =
  /(?<![\p{L}])(?:guid\p{L}*|curriculum|handbook|manual|standard|regulations?|guidelines?|recommend\p{L}*|advis\p{L}*|sets? out|states?|describes?|estimates?|finds|found|reports?|requires?|norm[aąy]?|wytyczn\p{L}*|zalec\p{L}*|poradnik\p{L}*|rozporządzen\p{L}*|ustaw\p{L}*|podaj\p{L}*|opisuj\p{L}*|określ\p{L}*|wskazuj\p{L}*|wymag\p{L}*|norm|richtlinie\p{L}*|leitfaden|handbuch|verordnung|empfiehlt|empfehl\p{L}*|legt|beschreibt|nennt|verlangt|rät|schreibt)(?![\p{L}])/iu;
// Citations: "(Smith, 2021)", "(Smith et al. 2021)", "[3]", "Source: …", a link in the text.
const PAREN_REF = /\(\s*\p{Lu}[\p{L}.&\s-]{1,60},?\s*(?:et al\.?,?\s*)?(?:19|20)\d\d[a-z]?\s*\)|\[\d{1,3}\]/u;
const SOURCE_LINE = /^(?:sources?|źródł[oa]|quellen?|references?|bibliografia|literatur)\s*:/iu;

const cache = new WeakMap<Doc, Evidence>();

const isQuote = (text: string): boolean => QUOTE.test(text) && (REPORTING.test(text) || NAME.test(text));

/** A source named in the sentence: an organisation, an institution, a standard, a proper name. */
const namesSource = (text: string, lang: string): boolean => {
  const rest = text.replace(/^\S+\s*/, ''); // the first word is capitalised anyway
  return (
    ORG.test(rest) ||
    STANDARD.test(text) ||
    INSTITUTION.test(text) ||
    (lang !== 'de' && PROPER.test(text)) ||
    namesSourceMore(text)
  );
};

const isStatistic = (text: string, lang: string): boolean =>
  FIGURE.test(text) && (namesSource(text, lang) || (STUDY.test(text) && (YEAR.test(text) || NAME.test(text))));

/** A source named in running text with what it says or publishes, or by a reference form. */
const isCitation = (text: string, lang: string, links: string[]): boolean =>
  PAREN_REF.test(text) ||
  SOURCE_LINE.test(text.trim()) ||
  links.some((l) => text.includes(l)) ||
  STANDARD.test(text) ||
  (namesSource(text, lang) && CITED.test(text)) ||
  citesMore(text, lang);

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
    if (isStatistic(s.text, doc.language)) statistics.add(s);
    if (isCitation(s.text, doc.language, links)) citations.add(s);
  }
  for (const s of spanningQuotes(doc.sentences)) quotes.add(s);
  const sentences = new Set([...quotes, ...statistics, ...citations]);
  const e = { quotes, statistics, citations, sentences, count: sentences.size };
  cache.set(doc, e);
  return e;
};
