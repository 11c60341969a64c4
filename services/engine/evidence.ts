import {
  attributedFinding,
  citesMore,
  dashSpeech,
  NAME,
  namesSourceMore,
  reportedSpeech,
  REPORTING,
  spanningQuotes,
} from './evidenceForms.ts';
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

// A quoted span of five words or more, between any pair of the usual quotation marks. Four words
// and then any run without a mark: `{4,}` would say the same, but tried every count of words again
// before failing, and one unclosed quote before 30,000 words took minutes.
const QUOTE = /[“„«"‚‘]\s*(?:[^“”„«»"‚‘’\s]+\s+){4}[^“”„«»"‚‘’]*[”»"’“‘]/u;
// A figure with a unit: a number followed by %, a currency, or a word of measure; or a currency first.
// Group 1, else the rest of the run of digits: every later start in that run fails as its first did,
// and is skipped (a line of 50,000 digits was tried from each, half a minute).
const FIGURE = /((?:[$€£]\s?\d|\d[\d.,\u00a0 ]*\s?(?:%|‰|[€$£]|zł|°|\p{L}{1,14}\b)))|\d[\d.,\u00a0 ]*/gu;
const hasFigure = (text: string): boolean => {
  for (const m of text.matchAll(FIGURE)) if (m[1] !== undefined) return true;
  return false;
};
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
  /(?<![\p{L}])(?:survey|study|studies|report|census|poll|data|statistics|analysis|trial|testing|tests?|statystyk\p{L}*|statistik\p{L}*|test(?:u|y|ów|ach|ami|em|ie)|teście|badani\p{L}*|bada[ńn]|rapor\p{L}*|sonda\p{L}*|dan[eyi]\p{L}*|analiz\p{L}*|studie\p{L}*|umfrage\p{L}*|bericht\p{L}*|erhebung\p{L}*|daten|angaben|analyse\p{L}*)(?![\p{L}])/iu;
// German research compounds, capitalised as nouns: "Langzeittest", "Feinstaubmessungen", "Mieterumfrage",
// and the official counts named so ("Polizeiliche Kriminalstatistik 2023").
const STUDY_COMPOUND =
  /(?<![\p{L}])\p{Lu}\p{Ll}+(?:test|tests|studie|studien|umfrage|erhebung|messung|messungen|statistik|statistiken)(?![\p{L}])/u;
const YEAR = /\b(?:19|20)\d\d\b/;
// What a cited source does with the claim: its document, or a verb of stating or advising.
const CITED =
  /(?<![\p{L}])(?:guid\p{L}*|curriculum|handbook|manual|standard|regulations?|guidelines?|recommend\p{L}*|advis\p{L}*|sets? out|states?|describes?|estimates?|finds|found|reports?|requires?|norm[aąy]?|wytyczn\p{L}*|zalec\p{L}*|poradnik\p{L}*|rozporządzen\p{L}*|ustaw\p{L}*|podaj\p{L}*|opisuj\p{L}*|określ\p{L}*|wskazuj\p{L}*|wymag\p{L}*|norm|richtlinie\p{L}*|leitfaden|handbuch|verordnung|empfiehlt|empfehl\p{L}*|legt|beschreibt|nennt|verlangt|rät|schreibt)(?![\p{L}])/iu;
// Citations: "(Smith, 2021)", "(Smith et al. 2021)", "[3]", "Source: …", a link in the text.
const PAREN_REF = /\(\s*\p{Lu}[\p{L}.&\s-]{1,60},?\s*(?:et al\.?,?\s*)?(?:19|20)\d\d[a-z]?\s*\)|\[\d{1,3}\]/u;
const SOURCE_LINE = /^(?:sources?|źródł[oa]|quellen?|references?|bibliografia|literatur)\s*:/iu;

// A document a source publishes, named as such ("support article", "fact sheet", "on the … site"),
// per language. Written lower-case, matched with either case of the first letter (German
// capitalises them; the names beside them must stay case-sensitive, so the pattern has no i flag).
const DOCUMENTS: Record<string, string[]> = {
  en: ['article', 'page', 'site', 'website', 'paper', 'publication', 'blog', 'faq', 'leaflet', 'fact ?sheet'],
  pl: ['artyku\\p{L}*', 'stron(?:a|ie|y|ę)', 'witryn\\p{L}*', 'publikacj\\p{L}*', 'broszur\\p{L}*', 'ulot\\p{L}*'],
  de: ['artikel\\p{L}*', 'seite', 'webseite', 'website', 'veröffentlichung\\p{L}*', 'broschüre', 'merkblatt\\p{L}*'],
};
DOCUMENTS.en!.push('brochure', 'bulletin', 'documentation', 'datasheet', 'white ?paper');
// A public body's resolution, named with the body ("w uchwale Rady Miasta Płocka"): what a reader
// can look up in its register. English "resolution" is left out: a screen's, beside a maker's name.
DOCUMENTS.pl!.push('dokumentacj\\p{L}*', 'poradni\\p{L}*', 'blog\\p{L}*', 'uchwa\\p{L}*');
DOCUMENTS.de!.push('faktenblatt\\p{L}*', 'dokumentation', 'ratgeber\\p{L}*', 'blog\\p{L}*');
// A name: a capitalised word that is not the sentence's first (not Polish's capitalised "Ci",
// "Twój" of address); in German, which capitalises every noun, an acronym or a camel-case name.
const NAME_OF: Record<string, string> = {
  en: '\\p{Lu}[\\p{L}&.-]+',
  pl: '(?!(?:Ci|Cię|Ty|Tobie|Twoj|Twój|Twoi|Wam|Was|Wasz)(?![\\p{L}]))\\p{Lu}[\\p{L}&.-]+',
  de: '(?:\\p{Lu}{3,}|\\p{Lu}\\p{Ll}+\\p{Lu}\\p{L}+)',
};
/** A name beside the document, within three words either side: "Logitech's support article", "na stronie Ministerstwa Zdrowia". */
const docPattern = (lang: string) =>
  `(?<![\\p{L}])(?:${DOCUMENTS[lang]!.map((w) => `[${w[0]}${w[0]!.toUpperCase()}]${w.slice(1)}`).join('|')})(?![\\p{L}])`;
/** The document word alone: most sentences have none, and the named pattern is only tried where one is. */
const DOC_WORD: Record<string, RegExp> = Object.fromEntries(
  (['en', 'pl', 'de'] as const).map((lang) => [lang, new RegExp(docPattern(lang), 'u')]),
);
const NAMED_DOC: Record<string, RegExp> = Object.fromEntries(
  (['en', 'pl', 'de'] as const).map((lang) => {
    const doc = docPattern(lang);
    const name = NAME_OF[lang]!;
    const gap = '(?:\\s+\\S+){0,3}?\\s+';
    return [lang, new RegExp(`(?:(?<=\\S\\s+)${name}|${name}['’]s)${gap}${doc}|${doc}${gap}${name}`, 'u')];
  }),
);
// A body named by what it is and where it works: "a hospital infection-control team in Bristol",
// "zespół z Politechniki Gdańskiej", "ein Forschungsteam in Freiburg". One body, not a plural
// ("laboratories in Germany" is no source to check); the place is capitalised after its preposition.
const BODY_AT: Record<string, RegExp> = {
  en: /(?<![\p{L}])(?:team|unit|department|hospital|clinic|laboratory|lab|university|group|council|board|college|(?:researchers|scientists|engineers)(?=\s+(?:at|from)\s))(?:\s+\S+){0,3}?\s+(?:in|at|from|of)\s+(?:the\s+)?\p{Lu}\p{L}+/u,
  pl: /(?<![\p{L}])(?:zesp[oó]\p{L}*|szpital\p{L}*|klinik\p{L}*|laboratori(?:um|a)|naukowcy|badacze|uczelni\p{L}*|uniwersytet\p{L}*|politechni\p{L}*|wydzia\p{L}*|oddzia\p{L}*)(?:\s+\S+){0,3}?\s+(?:w|we|z|ze|na)\s+\p{Lu}\p{L}+/u,
  de: /(?<![\p{L}])(?:\p{Lu}\p{Ll}*(?:team|klinik|krankenhaus|labor|gruppe|abteilung)|Team|Klinik|Krankenhaus|Labor|Universität|Hochschule|Abteilung|Arbeitsgruppe|Institut)(?![\p{L}])(?:\s+\S+){0,3}?\s+(?:in|aus|an der|am)\s+\p{Lu}\p{L}+/u,
};

const cache = new WeakMap<Doc, Evidence>();

const isQuote = (text: string): boolean =>
  (QUOTE.test(text) && (REPORTING.test(text) || NAME.test(text))) || reportedSpeech(text) || dashSpeech(text);

/** A source named in the sentence: an organisation, an institution, a standard, a proper name. */
const namesSource = (text: string, lang: string): boolean => {
  const rest = text.replace(/^\S+\s*/, ''); // the first word is capitalised anyway
  return (
    ORG.test(rest) ||
    STANDARD.test(text) ||
    INSTITUTION.test(text) ||
    (lang !== 'de' && PROPER.test(text)) ||
    (BODY_AT[lang] ?? BODY_AT.en!).test(text) ||
    namesSourceMore(text)
  );
};

/** A source's own document, named: what a reader can open to check the claim. */
const namesDocument = (text: string, lang: string): boolean =>
  (DOC_WORD[lang] ?? DOC_WORD.en!).test(text) && (NAMED_DOC[lang] ?? NAMED_DOC.en!).test(text);

const isStatistic = (text: string, lang: string): boolean =>
  hasFigure(text) &&
  (namesSource(text, lang) ||
    attributedFinding(text, lang) ||
    ((STUDY.test(text) || STUDY_COMPOUND.test(text)) && (YEAR.test(text) || NAME.test(text))));

/** A source named in running text with what it says or publishes, or by a reference form. */
const isCitation = (text: string, lang: string, links: string[]): boolean =>
  PAREN_REF.test(text) ||
  SOURCE_LINE.test(text.trim()) ||
  links.some((l) => text.includes(l)) ||
  STANDARD.test(text) ||
  namesDocument(text, lang) ||
  (CITED.test(text) && namesSource(text, lang)) ||
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
