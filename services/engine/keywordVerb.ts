import type { Analyzer } from './document.ts';
import type { BodyStems } from './headNoun.ts';
import { describeKeyword } from './keyword.ts';
import { ALL_INTENTS, intentModifiers, lexiconFor } from './text/lexicon.ts';
import { tokenize } from './text/segment.ts';
import type { KeywordInfo } from './types.ts';

/**
 * A supplied keyword that names a task without a marker ("bleed a radiator", "descale kettle
 * citric acid", "mutter lösen"): its verb is not the entity. describeKeyword knows verbs from the
 * lexicon, Polish infinitives and "to …"; the rest the page shows, as for imperative titles
 * (keyword.ts): English puts the verb first, and a page about the task says it as a verb, after
 * "to" or before its object ("bleed the radiator", "bleed it"), in a good share of the sentences
 * that use the word ("compound interest" is said after "to" now and then, but is a noun phrase);
 * German puts the infinitive last, and the page writes it in lower case and never capitalised
 * mid-sentence, which a noun would be. Polish keywords carry the infinitive already.
 */

/** Words that open a verb's object: an article, a possessive, an object pronoun or a quantifier. */
const OBJECT_OPENERS = 'the|a|an|your|my|our|their|his|her|its|it|them|this|that|these|those|each|every|all|any';

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** English: the first word is used as a verb in at least two sentences and a third of its uses. */
const englishVerb = (w: string, sentences: string[]): boolean => {
  const lit = escape(w);
  const any = new RegExp(`(?<!\\p{L})${lit}(?!\\p{L})`, 'iu');
  const asVerb = [
    new RegExp(`(?<!\\p{L})to ${lit}(?!\\p{L})`, 'u'),
    new RegExp(`(?<!\\p{L})${lit} (?:${OBJECT_OPENERS})(?!\\p{L})`, 'iu'),
  ];
  const uses = sentences.filter((s) => any.test(s));
  const verbUses = uses.filter((s) => asVerb.some((re) => re.test(s))).length;
  return verbUses >= 2 && verbUses * 3 >= uses.length;
};

/** German: the last word is an infinitive the page writes in lower case and never as a noun. */
export const germanInfinitive = (w: string, text: string): boolean => {
  if (!/(?:en|ern|eln)$/.test(w)) return false;
  const cap = w.charAt(0).toLocaleUpperCase('de') + w.slice(1);
  return (
    new RegExp(`(^|[^\\p{L}])${escape(w)}([^\\p{L}]|$)`, 'u').test(text) &&
    !new RegExp(`[\\p{Ll},] ${escape(cap)}([^\\p{L}]|$)`, 'u').test(text)
  );
};

/** The keyword with the verb the page shows taken out of its entity (unchanged when there is none). */
export const withPageVerb = (
  kw: KeywordInfo,
  an: Analyzer,
  sentences: string[],
  body: BodyStems,
  nouns: Set<string> | null,
): KeywordInfo => {
  if (kw.verb || kw.intent === 'comparison') return kw;
  const lex = lexiconFor(an.lang);
  const words = tokenize(kw.text.toLowerCase());
  if (words.length < 2) return kw;
  const modifiers = intentModifiers(lex, ALL_INTENTS);
  const first = words[0] ?? '';
  const last = words[words.length - 1] ?? '';
  let verb = '';
  let rest: string[] = [];
  if (an.lang === 'en' && first.length >= 3 && !an.stop.has(first) && !modifiers.has(first)) {
    if (englishVerb(first, sentences)) [verb, rest] = [first, words.slice(1)];
  } else if (an.lang === 'de' && germanInfinitive(last, sentences.join('\n')))
    [verb, rest] = [last, words.slice(0, -1)];
  if (!verb) return kw;
  const inner = describeKeyword(rest.join(' '), an, body, nouns);
  if (!inner.entity) return kw;
  const question = lex.intent.question.some((q) => words.includes(q));
  return {
    ...kw,
    entity: inner.entity,
    entityStems: inner.entityStems,
    verb,
    verbStem: an.stem(verb),
    intent: kw.intent === 'informational' && !question ? 'instructional' : kw.intent,
  };
};
