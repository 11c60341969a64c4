/**
 * Sentence and word segmentation. A regular expression instead of Intl.Segmenter: it is faster,
 * and its result does not depend on the ICU data of the Node build (byte-identical output).
 */

// Abbreviations after which a full stop does not end a sentence (lower case, without the dot).
const ABBREVIATIONS = new Set([
  'np',
  'm.in',
  'tzn',
  'tj',
  'dr',
  'prof',
  'inż',
  'mgr',
  'lek',
  'hab',
  'ok',
  'r',
  'w',
  'ul',
  'tzw',
  'itd',
  'itp',
  'godz',
  'min',
  'mln',
  'mld',
  'tys',
  'zł',
  'nr',
  'str',
  'św',
  'płk',
  'gen',
  'wg',
  'e.g',
  'i.e',
  'etc',
  'vs',
  'mr',
  'mrs',
  'ms',
  'st',
  'no',
  'approx',
  'fig',
  'inc',
  'ltd',
  'jr',
  'sr',
  'u.s',
  'dept',
  'z.b',
  'bzw',
  'usw',
  'ca',
  'evtl',
  'ggf',
  'd.h',
  'u.a',
  'vgl',
  'nr',
  // Academic titles: "dr n. med. Anna Nowak", "Dr. rer. nat. Jens Weber", "Dipl.-Ing. Markus Feldmann".
  'med',
  'rer',
  'nat',
  'dipl',
  'ing',
]);

// Abbreviations that stand before a number, in legal, technical and bibliographic references
// ("art. 27 ustawy", "§ 5 Abs. 2", "sec. 9", "vol. 91, no. 3", "et al. 2014"): the full stop ends no
// sentence when a number follows. Before a word they end one ("… modern art. Then …").
const BEFORE_NUMBER = new Set([
  'art',
  'ust',
  'pkt',
  'poz',
  'lit',
  'abs',
  'sec',
  'para',
  'rys',
  'tab',
  'vol',
  'no',
  'pp',
  'bd',
  'jg',
  'al',
]);

const BOUNDARY = /(?<=[.!?…])["”»)]?\s+(?=["„«(]?[\p{Lu}\p{N}])/u;

export const splitSentences = (text: string): string[] => {
  const parts = text.split(BOUNDARY);
  const out: string[] = [];
  for (const raw of parts) {
    const part = raw.trim();
    if (!part) continue;
    const prev = out[out.length - 1];
    if (
      prev !== undefined &&
      ((endsWithAbbreviation(prev) && !unitEndsSentence(prev, part)) || (beforeNumber(prev) && /^\p{N}/u.test(part)))
    )
      out[out.length - 1] = `${prev} ${part}`;
    else out.push(part);
  }
  return out;
};

/** The word a text ends on before its full stop (group 2), with what stands before it (group 1). */
const LAST_WORD = /(?:^|([\s(-]))([\p{L}.]+)\.$/u;

const endsWithAbbreviation = (s: string): boolean => {
  const m = LAST_WORD.exec(s);
  if (!m || m[2] === undefined) return false;
  const w = m[2].toLowerCase();
  // Initials such as "J. Kowalski"; a capital after a hyphen ends a name of its own ("APS-C.").
  return ABBREVIATIONS.has(w) || (/^\p{Lu}$/u.test(m[2]) && m[1] !== '-');
};

const beforeNumber = (s: string): boolean => BEFORE_NUMBER.has((LAST_WORD.exec(s)?.[2] ?? '').toLowerCase());

// Units written after a number ("+50 zł.", "15 min.", "2 mln."): before a capitalised word the
// full stop ends the sentence ("+50 zł. W badaniu …"); inside one, the next word is lower case.
const UNITS = new Set(['zł', 'min', 'mln', 'mld', 'tys', 'godz']);
const unitEndsSentence = (prev: string, next: string): boolean => {
  const m = /\p{N}\s*([\p{L}]+)\.$/u.exec(prev);
  return m !== null && UNITS.has((m[1] ?? '').toLowerCase()) && /^["„«(]?\p{Lu}/u.test(next);
};

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*(?:-[\p{L}\p{N}]+)*/gu;

/** Lower-cased words of a text. */
export const tokenize = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/** Words with where they stand in the text (end exclusive), for edits that must keep the rest verbatim. */
export const wordSpans = (text: string): { word: string; start: number; end: number }[] =>
  [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));

/** Words keeping their case (for detecting names and surface forms). */
export const tokenizeKeepCase = (text: string): string[] => text.match(WORD) ?? [];

export const countWords = (text: string): number => (text.match(WORD) ?? []).length;
