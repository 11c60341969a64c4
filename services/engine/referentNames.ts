import type { Analyzer } from './document.ts';
import type { Doc } from './types.ts';

/**
 * The results' names as a view of what each is about (issue 24: the referent from "entities and
 * terms together"). Two pages on the same thing name the same people, places and firms; a page on
 * another thing of the same words (a strike in another city of the same name) shares the task's
 * vocabulary but names others. Read where a capital marks a name: inside a sentence, in English
 * and Polish; German capitalises every noun, so it has no such view (it has its compounds: referentCompounds.ts).
 */

/** A page this rich in names that shares none of them with any other result names other things. */
const MIN_NAMES = 15;
/** The pages whose agreement counts: this many names or more. */
const RICH = 10;
/** Two pages share their subject when they share at least this many names. */
const SHARED = 2;

/** Names inside sentences (a capital after a lower-case word, a comma or a colon), as 6-letter keys. */
const namesOf = (doc: Doc, keyword: string[]): Set<string> => {
  const out = new Set<string>();
  for (const m of doc.text.matchAll(/(?<=[\p{Ll},;:] )(\p{Lu}[\p{L}-]{2,})/gu)) {
    const key = (m[1] ?? '').toLowerCase().slice(0, 6);
    if (!keyword.some((k) => key.startsWith(k.slice(0, Math.min(5, k.length))))) out.add(key);
  }
  return out;
};

/**
 * Indexes of the results that name other things: rich in names, sharing two with no other result,
 * while most of the other name-rich results share theirs. Nothing when the results name little or
 * share nothing among themselves (a small SERP, a set of general explainers): no view then.
 */
export const namedApart = (pages: Doc[], an: Analyzer, keyword: string[]): number[] => {
  if (an.lang === 'de' || pages.length < 4) return [];
  const names = pages.map((d) => namesOf(d, keyword));
  const shares = names.map(
    (a, i) => names.filter((b, j) => j !== i && [...a].filter((x) => b.has(x)).length >= SHARED).length,
  );
  return names
    .map((n, i) => i)
    .filter((i) => names[i]!.size >= MIN_NAMES && shares[i] === 0)
    .filter((i) => {
      const rich = names.map((_, j) => j).filter((j) => j !== i && names[j]!.size >= RICH);
      const agreeing = rich.filter((j) => shares[j]! >= SHARED).length;
      return agreeing >= 2 && agreeing * 2 >= rich.length;
    });
};
