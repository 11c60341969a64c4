import { syllable } from 'syllable';

/** Syllable counts: English via the syllable package, other languages as vowel groups. */
const VOWEL_GROUPS: Record<string, RegExp> = {
  pl: /[aąeęioóuy]+/g,
  de: /[aeiouyäöü]+/g,
};

export const syllables = (word: string, lang: string): number => {
  if (lang === 'en') return Math.max(1, syllable(word));
  const re = VOWEL_GROUPS[lang] ?? /[aeiouy]+/g;
  return Math.max(1, (word.match(re) ?? []).length);
};
