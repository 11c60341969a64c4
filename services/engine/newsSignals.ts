import { firstHandSentences } from './firstHand.ts';
import type { Doc } from './types.ts';

/**
 * Whether a page reports an event (a news item), from general signals rather than the profile's
 * title and keyword cues, which missed a news item in blind review r7: a date at the top (a
 * dateline or the page's publication date), reporting verbs ("said", "poinformował", "sagte") and
 * an opening told in the past tense. A news item gets no evergreen question sections: each round
 * of the blind review rejected them as another article.
 */

/** A date as a dateline writes it: 10/03/2025, 2025-03-18, 18 March 2025, March 18, 2025, 18 marca 2025, 18. März 2025. */
const DATE =
  /\b(?:\d{1,2}[./]\d{1,2}[./](?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2}|\d{1,2}\.?\s+\p{L}{3,12}\s+(?:19|20)\d{2}|\p{L}{3,9}\s+\d{1,2},\s+(?:19|20)\d{2})\b/u;

/** A news dateline opening the lead: the place in capitals, then a dash or a full stop ("PERTH —", "KRAKÓW."). */
const DATELINE = /(?:^|\n)\s*(?:\*\*)?\p{Lu}{3,}(?:[ -]\p{Lu}{2,})*(?:\*\*)?\s*(?:[—–-]\s|\.\s+\p{Lu})/u;

/**
 * The event's own date in the lead: a day with its month ("25 października", "March 18", "am 3.
 * Mai"), a weekday ("on Saturday", "w sobotę", "am Samstag") or today/yesterday. A report names
 * when it happened or will happen in its first sentence; an evergreen page has no day to name.
 */
const EVENT_DAY: Record<string, RegExp> = {
  en: /\b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)|(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2}\b|on\s+(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)|(?:last|this|next)\s+(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|week|weekend)|today|yesterday|tonight)\b/u,
  pl: /(?<![\p{L}])(?:\d{1,2}\s+(?:stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia)|(?:w|we)\s+(?:poniedziałek|wtorek|środę|czwartek|piątek|sobotę|niedzielę)|dzisiaj|dziś|wczoraj|jutro)(?![\p{L}])/iu,
  de: /(?<![\p{L}])(?:\d{1,2}\.\s*(?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)|am\s+(?:Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)|heute|gestern|morgen)(?![\p{L}])/iu,
};

/** A publication line ("Published 18 March 2025 by …", "Opublikowano …"): it dates the page, not the event. */
const PUBLICATION =
  /(?<![\p{L}])(?:published|updated|posted|by|opublikowano|aktualizacja|autor\p{L}*|veröffentlicht|aktualisiert|von)(?![\p{L}])/iu;

const REPORTING: Record<string, RegExp> = {
  // Not the passive of a hedge ("it is often said", "is reported to"): nobody is quoted there.
  en: /(?<!\b(?:is|are|be|been|being|was|were|often|sometimes|commonly|generally|widely|also|usually)\s)\b(?:said|says|announced|reported|told|confirmed|according to|stated)\b(?!\s+(?:to\s+be|by)\b)/giu,
  pl: /(?<![\p{L}])(?:powiedział[a]?|poinformował[a]?|poinformowali|ogłosił[a]?|zapowiedział[a]?|przekazał[a]?|potwierdził[a]?|według|podał[a]?|dodał[a]?|zaznaczył[a]?|podkreślił[a]?|stwierdził[a]?|przyznał[a]?|wyjaśnił[a]?|ocenił[a]?|zapewnił[a]?|relacjonował[a]?|mówi|przekazuje|informuje|komentuje)(?![\p{L}])/giu,
  de: /(?<![\p{L}])(?:sagte|sagt|teilte|kündigte|erklärte|berichtete|bestätigte|laut|betonte|ergänzte|räumte|meldete|meldet|teilt)(?![\p{L}])/giu,
};

/** A finite verb in the past tense (a rough, language-wide cue: English -ed and was/were, Polish -ł/-ła/-li, German Präteritum). */
const PAST: Record<string, RegExp> = {
  // -ed after an auxiliary is a passive or a perfect ("is descaled", "has been tested"), not narration.
  en: /(?<!\b(?:is|are|be|been|being|has|have|get|gets|got|it's|they're)\s)\b(?:\p{L}{3,}ed|was|were|had|said|began|took|went|rose|fell|won|lost|came)\b/iu,
  pl: /(?<![\p{L}])\p{L}{3,}(?:ł|ła|ło|li|ły)(?![\p{L}])/iu,
  de: /(?<![\p{L}])(?:wurde|wurden|war|waren|hatte|hatten|sagte|eröffnete|\p{L}{3,}te|\p{L}{3,}ten)(?![\p{L}])/iu,
};

export interface NewsSignals {
  dateAtTop: boolean;
  reporting: number;
  /** Share of the opening's sentences (up to ten) that carry a past-tense verb. */
  pastShare: number;
  /** The lead names the day of the event (a report of what is coming is told in the future). */
  dayInLead: boolean;
}

/**
 * The lead: the first paragraph of the writer's prose (a byline or publication line is not it), up to three
 * sentences. A report of a coming change names its day there ("the new prices apply from 2
 * January"), often after a first sentence that states the change itself.
 */
const leadSentences = (doc: Doc): Doc['sentences'] => {
  // A byline or a dateline ("Anna Nowak, Kurier") is no lead: a lead sentence tells something.
  const first = doc.sentences.find((x) => x.kind === 'prose' && x.words.length >= 8 && !PUBLICATION.test(x.text));
  if (!first) return [];
  return doc.sentences
    .filter((x) => x.kind === 'prose' && x.section === first.section && x.block === first.block)
    .slice(0, 3);
};

export const newsSignals = (doc: Doc): NewsSignals => {
  const lang = REPORTING[doc.language] ? doc.language : 'en';
  // The dateline itself ("Published 12/03/2025 by …") dates the page; it narrates nothing.
  const opening = doc.sentences.filter((s) => s.kind === 'prose' && !DATE.test(s.text)).slice(0, 10);
  const past = opening.filter((s) => PAST[lang]!.test(s.text)).length;
  return {
    dateAtTop:
      Boolean(doc.signals.datePublished) || DATE.test(doc.text.slice(0, 600)) || DATELINE.test(doc.text.slice(0, 800)),
    reporting: (doc.text.match(REPORTING[lang]!) ?? []).length,
    pastShare: opening.length ? past / opening.length : 0,
    dayInLead: leadSentences(doc).some((x) => EVENT_DAY[lang]!.test(x.text)),
  };
};

/**
 * Narrates an event and quotes who reported it, dated or not: what makes a byline worth asking for
 * on a page read as news (a poor explainer full of "it is often said" is read as news by its
 * profile, and a byline task there was rejected as noise in blind review r7).
 */
export const narratesEvent = (doc: Doc): boolean => {
  const s = newsSignals(doc);
  return s.reporting >= 2 && s.pastShare >= 0.4;
};

/**
 * A dated page that quotes or cites its sources ("said", "announced") and opens in the past tense,
 * or names the event's day in its first sentence (a report of a coming change is in the future tense).
 */
export const reportsEvent = (doc: Doc): boolean => {
  const s = newsSignals(doc);
  // A page that tells the writer's own use more than others' words is a review, not a report.
  if (firstHandSentences(doc) > s.reporting) return false;
  return s.dateAtTop && s.reporting >= 2 && (s.pastShare >= 0.4 || s.dayInLead);
};

/** Results reporting an event that make the query a news query: one could be a stray report. */
const NEWS_RESULTS = 2;

/** The SERP's pages report an event: the query asks for news. */
export const serpReportsNews = (results: Doc[]): boolean => results.filter(reportsEvent).length >= NEWS_RESULTS;
