import { stemmer as snowballGerman } from '@orama/stemmers/german';
import { stemmer as porter } from 'stemmer';

/**
 * Stemming. English: Porter (`stemmer`). German: Snowball German (`@orama/stemmers`, Apache-2.0).
 * Polish: no maintained library stems Polish acceptably (docs/scoring.md, "Stemming", lists what
 * was tried and how it failed), so a light suffix stripper written for the project is used, then a
 * cut to a fixed prefix length, which conflates inflected forms well enough for matching
 * ("kredytu", "kredytów" → "kredyt"; "hipoteczny", "hipoteczna" → "hipote"; "kawy", "kawę" → "kaw").
 */

const PL_SUFFIXES = [
  'owego',
  'owemu',
  'owymi',
  'ościach',
  'ością',
  'ości',
  'ość',
  'ami',
  'ach',
  'ego',
  'emu',
  'ymi',
  'imi',
  'ich',
  'ych',
  'owi',
  // The instrumental after k and g ("domkiem", "rokiem"), which 'em' alone leaves with its i.
  'iem',
  'ów',
  'om',
  'em',
  'ej',
  'ym',
  'im',
  'ie',
  'ać',
  'ić',
  'yć',
  'eć',
  'ą',
  'ę',
  'y',
  'a',
  'e',
  'i',
  'o',
  'u',
].sort((a, b) => b.length - a.length);

const stripSuffix = (w: string, suffixes: string[], minStem: number): string => {
  for (const s of suffixes) if (w.length - s.length >= minStem && w.endsWith(s)) return w.slice(0, -s.length);
  return w;
};

/**
 * A soft n is written ń at a word's end and ni before a vowel ("Toruń", "w Toruniu"; "pytań",
 * "pytania"): both spellings meet at n, so a city named in the locative matches its nominative in
 * the keyword. Only n after a vowel: the other soft consonants are left as they were, since each
 * extra merge moves what the results share (the other-referent grouping reads it).
 */
const hardenPl = (stem: string): string => {
  if (stem.endsWith('ń')) return `${stem.slice(0, -1)}n`;
  return stem.length > 3 && /[aeiouyąęó]ni$/u.test(stem) ? stem.slice(0, -1) : stem;
};

/**
 * A fleeting e: Polish drops the e of a last syllable when an ending follows ("pędzel", "pędzla";
 * "domek", "domku"; "palec", "palca") and inserts one in the genitive plural of -ka/-ko nouns
 * ("deska", "desek"). Every stem ending consonant + e + k, c, l, ł or r loses that e, so the forms
 * with and without it meet, whichever the word is (a stem that keeps its e in every form, "hotel",
 * "hotelu", loses it in every form alike). Not before "-ie" (below).
 */
const fleetingE = (stem: string): string =>
  stem.length >= 4 && /[^aeiouyąęó]e[kclrł]$/u.test(stem) ? stem.slice(0, -2) + stem.slice(-1) : stem;

const stemOne = (word: string, lang: string): string => {
  if (/^\d/.test(word)) return word;
  if (lang === 'pl') {
    const stem = stripSuffix(word, PL_SUFFIXES, 3);
    // "-ie" after -r or -l is the plural of a noun in -ia ("baterie": bateri-e), not a fleeting e.
    const plural = word.endsWith('ie') && stem.length === word.length - 2;
    return hardenPl(plural ? stem : fleetingE(stem)).slice(0, 6);
  }
  if (lang === 'de') return snowballGerman(word);
  if (lang === 'en' || /^[\p{ASCII}]*$/u.test(word)) return porter(word.replace(/[’']s$/, ''));
  return word.slice(0, 7);
};

/** A memoised stemmer for one language (each run creates its own, so nothing leaks between runs). */
export const createStemmer = (lang: string): ((word: string) => string) => {
  const cache = new Map<string, string>();
  return (word: string) => {
    let s = cache.get(word);
    if (s === undefined) {
      s = stemOne(word, lang);
      cache.set(word, s);
    }
    return s;
  };
};
