import { syllable } from 'syllable';

/** Syllable counts: English via the syllable package, other languages as vowel groups. */
const VOWEL_GROUPS: Record<string, RegExp> = {
  pl: /[aąeęioóuy]+/g,
  de: /[aeiouyäöü]+/g,
};

// Memoised: readability counts the same words thousands of times; bounded so a long-running
// service does not grow it without limit.
const cache = new Map<string, number>();

export const syllables = (word: string, lang: string): number => {
  const key = `${lang}:${word}`;
  let n = cache.get(key);
  if (n === undefined) {
    n = count(word, lang);
    if (cache.size > 100_000) cache.clear();
    cache.set(key, n);
  }
  return n;
};

/** Longer than any dictionary word: the syllable package's suffix patterns backtrack over the whole
 * word, so a 40,000-letter token took seconds; such a token is counted in pieces of this length. */
const LONGEST_WORD = 40;

const count = (word: string, lang: string): number => {
  if (lang === 'en' && word.length > LONGEST_WORD) {
    let n = 0;
    for (let i = 0; i < word.length; i += LONGEST_WORD) n += count(word.slice(i, i + LONGEST_WORD), lang);
    return n;
  }
  if (lang === 'en') return Math.max(1, syllable(word));
  const re = VOWEL_GROUPS[lang] ?? /[aeiouy]+/g;
  return Math.max(1, (word.match(re) ?? []).length);
};
