import type { Analyzer } from './document.ts';
import { lexiconFor } from './text/lexicon.ts';
import { tokenize } from './text/segment.ts';

/**
 * The head noun: the title word the page is about. Without a part-of-speech tagger for three
 * languages, the page itself decides: of the title's content words, the one its body repeats most.
 * Generic heads of a title's phrase ("types", "rodzaje", "removal", "review") lose to the thing they
 * qualify, which a page about that thing names in far more sentences.
 */

/** Body sentences as stems of every word (stop words included, so runs can be matched in order). */
export type BodyStems = string[][];

export const bodyStemsOf = (sentences: string[], an: Analyzer): BodyStems =>
  sentences.map((t) => tokenize(t).map(an.stem));

/** Sentences holding every one of the stems. */
export const sentenceCount = (body: BodyStems, stems: string[]): number =>
  body.filter((s) => stems.every((st) => s.includes(st))).length;

/** Sentences holding the stems as one run, in this order. */
export const runCount = (body: BodyStems, run: string[]): number => {
  if (!run.length) return 0;
  let n = 0;
  for (const s of body) {
    for (let i = 0; i + run.length <= s.length; i++) {
      if (run.every((st, k) => s[i + k] === st)) {
        n++;
        break;
      }
    }
  }
  return n;
};

export interface Head {
  /** The word as the title writes it (lower case); a part of a hyphenated word stands alone. */
  word: string;
  stem: string;
}

const SEGMENT = /[:;,.!?()[\]{}|–—"„”“«»]+|\s-\s/;

/** A title word and, for "Schimmel-Arten", its parts. */
const withParts = (w: string): string[] => (w.includes('-') ? [w, ...w.split('-').filter(Boolean)] : [w]);

/**
 * The title's head noun: of the content words of the title's first clause (all its clauses and the
 * H1 when the first clause has none the body repeats), the one the most body sentences hold, an H1
 * use counting as one more sentence; the earlier word on a tie. Null when no title word recurs.
 */
export const titleHead = (
  title: string,
  h1: string,
  body: BodyStems,
  an: Analyzer,
  isContent: (w: string) => boolean,
): Head | null => {
  const h1Stems = new Set(tokenize(h1).flatMap(withParts).map(an.stem));
  const best = (words: string[]): (Head & { n: number }) | null => {
    let top: (Head & { n: number }) | null = null;
    for (const word of words.flatMap(withParts)) {
      if (!isContent(word)) continue;
      const stem = an.stem(word);
      const n = sentenceCount(body, [stem]) + (h1Stems.has(stem) ? 1 : 0);
      if (n >= 2 && (!top || n > top.n)) top = { word, stem, n };
    }
    return top;
  };
  const clause = title.split(SEGMENT).find((s) => tokenize(s).some(isContent)) ?? '';
  const first = tokenize(clause);
  const byUse = best(first);
  const subject = servedSubject(first, byUse, an)?.filter(isContent);
  // English's head is the subject's last word; Polish and German, which may open on an adjective,
  // take the subject's word the body uses most.
  const served = !subject ? null : an.lang === 'en' ? headOf(phraseHead(subject, an.lang), an) : best(subject);
  return placedHead(clause, an, isContent) ?? served ?? byUse ?? best([...tokenize(title), ...tokenize(h1)]);
};

const headOf = (word: string | undefined, an: Analyzer): Head | null => (word ? { word, stem: an.stem(word) } : null);

/**
 * A clause that says whom or what its subject serves ("Coffee Grinder for Home Espresso", "Pompa
 * ciepła do domu", "Mühle für Espresso"): the head is in the subject before the preposition, even
 * when the body repeats the purpose more ("espresso"). The subject's words, only when the word the
 * body uses most (`byUse`) stands after the preposition; else null.
 */
const servedSubject = (words: string[], byUse: Head | null, an: Analyzer): string[] | null => {
  const purpose = new Set(lexiconFor(an.lang).purpose);
  const at = words.findIndex((w, i) => i > 0 && purpose.has(w));
  if (
    at < 0 ||
    !byUse ||
    !words
      .slice(at + 1)
      .flatMap(withParts)
      .includes(byUse.word)
  )
    return null;
  return words.slice(0, at);
};

/**
 * A clause that names a place after its subject ("Emergency Plumber in Reading", "Kosmetyczka w
 * Toruniu", "Hochwasser im Landkreis Regen"): the place phrase qualifies what stands before it, so
 * the head is there, however often the body repeats a modifier ("emergency") or the place: the
 * last word of that phrase in English, which puts its head last, the first in Polish and German.
 */
const placedHead = (clause: string, an: Analyzer, isContent: (w: string) => boolean): Head | null => {
  const preps = new Set(lexiconFor(an.lang).intent.locative);
  const raw = clause.trim().split(/\s+/u);
  const at = raw.findIndex((w, i) => i > 0 && preps.has(w.toLowerCase()) && /^\p{Lu}/u.test(raw[i + 1] ?? ''));
  if (at < 0) return null;
  return headOf(phraseHead(tokenize(raw.slice(0, at).join(' ')).filter(isContent), an.lang), an);
};

// Prepositions that open a noun phrase's complement: its head stands before them ("monitor for
// photo editing", "pędzel do farby", "Kamera für Anfänger").
const COMPLEMENT: Record<string, RegExp> = {
  en: /^(?:for|of|with|without|in|on|under|from|to)$/u,
  pl: /^(?:do|dla|na|w|we|z|ze|od|po|bez|pod)$/u,
  de: /^(?:für|mit|ohne|im|in|zum|zur|von|vom|aus|am|an)$/u,
};

/**
 * The head stem of a keyphrase's entity ("monitor" of "monitor for photo editing", "houseplant"
 * of "low light houseplants", "pędzel" of "pędzel do farby"): the noun a page then names its subject by.
 */
export const keyphraseHead = (entity: string, an: Analyzer): string | undefined => {
  const words = tokenize(entity.toLowerCase());
  const cut = words.findIndex((w, i) => i > 0 && (COMPLEMENT[an.lang] ?? COMPLEMENT.en!).test(w));
  const phrase = (cut > 0 ? words.slice(0, cut) : words).filter((w) => !an.stop.has(w) && w.length > 1);
  const head = phraseHead(phrase, an.lang);
  return head ? an.stem(head) : undefined;
};

/** The head of a noun phrase's content words: English puts it last ("bus strike"), Polish and German first ("podwyżka cen"). */
export const phraseHead = (contentWords: string[], lang: string): string | undefined =>
  lang === 'en' ? contentWords.at(-1) : contentWords[0];

/**
 * The span of a keyword's entity words around its head: when the page repeats the entity whole, or
 * not in two parts, it stays; when it repeats two parts of it apart but never the whole ("kettle"
 * and "citric acid", never "kettle citric acid"), the entity is the part the page repeats more
 * ("kettle"), the earlier on a tie. A part is cut at a content word; function words at its edges go.
 * `nouns` (German: the words the text capitalises mid-sentence) keeps a lone verb ("lösen") out.
 */
export const entitySpan = (
  words: string[],
  body: BodyStems,
  an: Analyzer,
  nouns: Set<string> | null = null,
): string[] => {
  const stems = words.map(an.stem);
  const isContent = (i: number) => !an.stop.has(words[i] ?? '');
  // Two words are one name more often than not ("wymiana zamków"): only longer entities are cut.
  if (words.filter((_, i) => isContent(i)).length < 3 || runCount(body, stems) >= 2) return words;
  const trim = (a: number, b: number): [number, number] => {
    while (a < b && !isContent(a)) a++;
    while (b > a && !isContent(b - 1)) b--;
    return [a, b];
  };
  let best: { a: number; b: number; n: number } | null = null;
  for (let k = 1; k < words.length; k++) {
    if (!isContent(k)) continue;
    const parts = [trim(0, k), trim(k, words.length)];
    const counts = parts.map(([a, b]) => runCount(body, stems.slice(a, b)));
    if (counts.some((n) => n < 2)) continue;
    parts.forEach(([a, b], i) => {
      const n = counts[i] ?? 0;
      const named = !nouns || words.slice(a, b).some((w) => nouns.has(w));
      if (b > a && named && (!best || n > best.n)) best = { a, b, n };
    });
  }
  const pick = best as { a: number; b: number } | null;
  return pick ? words.slice(pick.a, pick.b) : words;
};

/** German words the text capitalises inside a sentence: its nouns (lower case). */
export const germanNouns = (text: string): Set<string> => {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<=[\p{Ll},] )\p{Lu}[\p{L}-]*/gu)) out.add(m[0].toLocaleLowerCase('de'));
  return out;
};

/**
 * Whether a phrase's stems hold the head noun: the word itself or, where compounds are written
 * closed (German), a compound whose last part it is ("wasserhahn" holds "hahn", "profilzylinder"
 * holds "zylinder"): a compound's head is its last part. Parts of hyphenated words stand alone.
 */
export const holdsHead = (stems: string[], head: string, lang: string): boolean => {
  const holds = (s: string) =>
    s === head || (lang === 'de' && head.length >= 3 && s.length >= head.length + 3 && s.endsWith(head));
  // Read for every sentence of a page (density): no array is built per stem.
  return stems.some((s) => holds(s) || (s.includes('-') && s.split('-').some(holds)));
};
