import type { Analyzer } from './document.ts';
import { unigramCounts } from './text/terms.ts';
import type { Doc } from './types.ts';

/**
 * The thing a result is about, as a view of the referent (issue 24: close referents). Two products
 * of the same words (a house's heat pump and a pool's, a coffee grinder and an angle grinder) are
 * described with one vocabulary, so the pages' words and names do not fall apart; but a page about
 * the other thing keeps naming it: a common noun among its most used words, in its title, that no
 * other result uses at all and the SERP's questions never ask about. Read where a capital tells a
 * kind from a name (English, Polish): a model or firm a single result names is not another thing.
 */

/** A page needs this many content words before its most used ones say what it is about. */
const MIN_WORDS = 150;
/** Its most used words looked at. */
const TOP = 5;
/** The other thing is named at least this often, and in at least this share of the page's words. */
const MIN_USES = 6;
const MIN_SHARE = 0.01;

/** Stems of a page's title, H1 and SERP title: what it says it is about. */
const titleStems = (doc: Doc, serpTitle: string | null, an: Analyzer): Set<string> => {
  const out = new Set<string>();
  for (const text of [doc.title, doc.h1, serpTitle ?? ''])
    for (const s of an.analyse(text, 'list')) s.stems.forEach((st, i) => out.add(st ?? s.words[i] ?? ''));
  return out;
};

/** Stems the page writes in lower case inside sentences at least as often as capitalised there. */
const commonNouns = (doc: Doc, an: Analyzer): Set<string> => {
  const lower = new Map<string, number>();
  for (const m of doc.text.matchAll(/(?<=[\p{L},;:] )(\p{L}[\p{L}-]*)/gu)) {
    const w = m[1] ?? '';
    const k = an.stem(w.toLowerCase());
    lower.set(k, (lower.get(k) ?? 0) + (w === w.toLowerCase() ? 1 : -1));
  }
  return new Set([...lower].filter(([, n]) => n >= 0).map(([k]) => k));
};

/**
 * Indexes of the results that name another thing: a strict minority of pages (of four or more),
 * each with a headline word (above) no other result uses. `query`: the stems of the SERP's
 * questions and related searches. Nothing in German (every noun capitalised; its compounds are its
 * view) or when most pages have such a word (a set of unrelated pages: no view then).
 */
export const headlinedApart = (
  pages: Doc[],
  an: Analyzer,
  keyword: string[],
  serpTitles: (string | null)[],
  query: Set<string>,
): number[] => {
  if (an.lang === 'de' || pages.length < 4) return [];
  const drop = new Set(keyword);
  const counts = pages.map((d) => new Map([...unigramCounts(d, an)].filter(([k]) => !drop.has(k))));
  const df = new Map<string, number>();
  for (const c of counts) for (const k of c.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const apart = pages
    .map((d, i) => i)
    .filter((i) => {
      const c = counts[i]!;
      const total = [...c.values()].reduce((a, b) => a + b, 0);
      if (total < MIN_WORDS) return false;
      const title = titleStems(pages[i]!, serpTitles[i] ?? null, an);
      const common = commonNouns(pages[i]!, an);
      return [...c]
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP)
        .some(
          ([k, n]) =>
            df.get(k) === 1 &&
            n >= MIN_USES &&
            n >= MIN_SHARE * total &&
            title.has(k) &&
            common.has(k) &&
            !query.has(k),
        );
    });
  return apart.length * 2 < pages.length ? apart : [];
};
