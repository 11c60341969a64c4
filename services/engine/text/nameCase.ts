import type { Analyzer } from '../document.ts';
import type { Doc, Sentence } from '../types.ts';

/**
 * How a page writes each word inside its sentences: per stem, its lower-case uses minus its
 * capitalised ones (a name is capitalised where a kind is not). English and Polish read the word
 * itself, after a letter, a comma or a colon and a space (never a sentence's first word); German,
 * which capitalises every noun, reads the word after it: a lower-case word follows a kind ("die
 * Kette am Schwert"), a capital or a figure a name ("Medivo Pyro 550").
 */
export const caseVotes = (doc: Doc, an: Analyzer): Map<string, number> => {
  const votes = new Map<string, number>();
  const vote = (w: string, common: boolean) => {
    const k = an.stem(w.toLowerCase());
    votes.set(k, (votes.get(k) ?? 0) + (common ? 1 : -1));
  };
  // Each match starts at a word's start: from every letter of a 100,000-letter token the
  // expression would read to its end again (quadratic; a hostile competitor page stalled a thread).
  if (an.lang === 'de')
    for (const m of doc.text.matchAll(/(?<![\p{L}-])(\p{L}[\p{L}-]*)[ ]+([\p{L}\p{N}][\p{L}\p{N}.-]*)/gu))
      vote(m[1] ?? '', /^\p{Ll}/u.test(m[2] ?? ''));
  else
    for (const m of doc.text.matchAll(/(?<=[\p{L},;:] )(\p{L}[\p{L}-]*)/gu)) {
      const w = m[1] ?? '';
      vote(w, w === w.toLowerCase());
    }
  return votes;
};

/**
 * How the page writes one word inside its prose sentences (never a sentence's first word), as the
 * word itself in every language, leaving out the given sentences: capitalised uses minus lower-case
 * ones. Positive: the page writes it as a name (in German, as a noun).
 */
export const capitalBalance = (doc: Doc, word: string, outside: ReadonlySet<Sentence>): number => {
  const low = word.toLowerCase();
  const cap = low.charAt(0).toUpperCase() + low.slice(1);
  let n = 0;
  for (const s of doc.sentences) {
    if (s.kind !== 'prose' || outside.has(s)) continue;
    for (const token of s.text.split(/\s+/u).slice(1)) {
      const w = token.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
      n += w === cap ? 1 : w === low ? -1 : 0;
    }
  }
  return n;
};
