import type { Doc } from './types.ts';

/**
 * Whether the article rests on the writer's own first-hand use: first-person testing, measuring,
 * using or driving ("we tested", "I measured", "przetestowałem", "w naszym teście", "ich habe
 * gemessen"). A byline vouches for such facts; on hearsay or a vague compilation it vouches for
 * nothing, and the blind review r8 rejected it there as noise.
 */

const FIRST_HAND: Record<string, RegExp> = {
  en: /\b(?:(?:I|we)(?:'ve|’ve| have| had)?\s+(?:personally\s+)?(?:tested|measured|tried|used|ran|compared|drove|owned|timed|weighed|fitted|installed|cooked|baked|brewed|grew|planted|pruned|repaired|fixed|spent)|in my (?:experience|workshop|kitchen|garden|tests?)|our (?:tests?|measurements?|workshop|test kitchen)|(?:I|we) (?:test|measure|use) (?:it|them|every)|hands-on)\b/iu,
  // Polish marks the first person in the verb itself: -łem/-łam/-liśmy/-łyśmy (past), -uję/-am (present).
  pl: /(?<![\p{L}])(?:\p{L}{2,}(?:łem|łam|liśmy|łyśmy)|testuję|używam|używamy|jeżdżę|jeździmy|mierzę|w (?:moim|naszym) (?:teście|warsztacie|przypadku|ogrodzie)|w naszych testach|z mojego doświadczenia)(?![\p{L}])/iu,
  de: /(?<![\p{L}])(?:(?:ich|wir)\s+(?:habe|haben|hatte|hatten)\s+[^.!?]{0,80}?(?:getestet|gemessen|ausprobiert|probiert|benutzt|verwendet|gefahren|gebacken|gekocht|eingebaut|gewechselt)|in unserem test|in meiner werkstatt|meiner erfahrung nach|aus eigener erfahrung|(?:ich|wir)\s+(?:teste|testen|nutze|nutzen|messe|messen))(?![\p{L}])/iu,
};

const patternOf = (lang: string): RegExp => FIRST_HAND[lang] ?? FIRST_HAND.en!;

/** Sentences of first-hand report needed: one may be a figure of speech ("I used to think…"). */
const MIN_SENTENCES = 2;

/**
 * The writer reporting what they did, beyond testing ("we paid for six", "wir haben … bezahlt"): a
 * disclosure or an account, never filler.
 */
const OWN_ACTION =
  /(?<!\p{L})(?:(?:I|[Ww]e)\s+(?:\p{L}+ed|paid|bought|got|had|made|took|spent|kept|sent|gave|lent)|(?:[Ii]ch|[Ww]ir)\s+(?:habe|haben|hatte|hatten))(?!\p{L})/u;

/**
 * A first-person verb in a relative clause describes its noun ("dziedzictwo, które otrzymaliśmy",
 * "the heritage that we received"): the inclusive "we" of a platitude, not the writer's account.
 */
const RELATIVE_FIRST_PERSON =
  /(?<![\p{L}])(?:któr\p{L}*\s+(?:\p{L}+\s+)?\p{L}{2,}(?:łem|łam|liśmy|łyśmy)|(?:that|which|whom)\s+(?:I|we)\s+\p{L}+)(?![\p{L}])/giu;

/** Whether a sentence reports the writer's own doing: first-hand use, or another action of theirs. */
export const reportsOwnDoing = (text: string, lang: string): boolean => {
  const own = text.replace(RELATIVE_FIRST_PERSON, ' ');
  return patternOf(lang).test(own) || OWN_ACTION.test(own);
};

export const firstHandSentences = (doc: Doc): number => {
  const re = patternOf(doc.language);
  return doc.sentences.filter((s) => s.kind !== 'table' && re.test(s.text)).length;
};

export const showsFirstHand = (doc: Doc): boolean => firstHandSentences(doc) >= MIN_SENTENCES;
