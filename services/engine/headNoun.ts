import type { Analyzer } from './document.ts';
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
  const first = tokenize(title.split(SEGMENT).find((s) => tokenize(s).some(isContent)) ?? '');
  return best(first) ?? best([...tokenize(title), ...tokenize(h1)]);
};

/**
 * The span of a keyword's entity words around its head: the head is the word the body repeats
 * most, widened to a neighbour only while the body repeats the widened run, so "kettle citric acid"
 * gives "kettle" and "espresso machine" stays whole. An entity the body repeats whole is kept.
 */
export const entitySpan = (words: string[], body: BodyStems, an: Analyzer): string[] => {
  const stems = words.map(an.stem);
  const content = words.map((w) => !an.stop.has(w));
  if (content.filter(Boolean).length < 2 || runCount(body, stems) >= 2) return words;
  let head = -1;
  let top = 0;
  stems.forEach((st, i) => {
    if (!content[i]) return;
    const n = sentenceCount(body, [st]);
    if (n > top) [head, top] = [i, n];
  });
  if (head < 0 || top < 2) return words;
  let a = head;
  let b = head;
  // Widen over function words only together with the content word beyond them ("zakwas na chleb").
  const next = (from: number, step: number) => {
    let i = from + step;
    while (i >= 0 && i < words.length && !content[i]) i += step;
    return i;
  };
  for (let j = next(b, 1); j < words.length && runCount(body, stems.slice(a, j + 1)) >= 2; j = next(j, 1)) b = j;
  for (let i = next(a, -1); i >= 0 && runCount(body, stems.slice(i, b + 1)) >= 2; i = next(i, -1)) a = i;
  return words.slice(a, b + 1);
};
