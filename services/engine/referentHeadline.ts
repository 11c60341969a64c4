import type { Analyzer } from './document.ts';
import { caseVotes } from './text/nameCase.ts';
import { unigramCounts } from './text/terms.ts';
import type { Doc } from './types.ts';

/**
 * The thing a result is about, as a view of the referent (issue 24: close referents). Two products
 * of the same words (a house's heat pump and a pool's, a bicycle's chain and a chainsaw's) are
 * described with one vocabulary, so the pages' words and names do not fall apart; but a page about
 * the other thing keeps naming it: a common noun among its most used words, which it names where
 * it says what it is about (its title or a subheading), that no other result uses at all (in its
 * text or its title) and the SERP's questions never ask about. A model or firm a single result
 * names is not another thing: a capital tells a name where a language writes kinds in lower case
 * (English, Polish); German capitalises every noun, so there a name is what its next word (a model
 * number, another capitalised part) shows it to be.
 */

/** A page needs this many content words before its most used ones say what it is about. */
const MIN_WORDS = 150;
/** Its most used words looked at. */
const TOP = 5;
/** The other thing is named at least this often, and in at least this share of the page's words. */
const MIN_USES = 6;
const MIN_SHARE = 0.01;
/** A German compound's part this long is a word of its own ("Schwertspitze" names the "Schwert"). */
const MIN_PART = 4;

/** The words of a page's title, H1, SERP title and subheadings: where it says what it is about. */
const zoneWords = (doc: Doc, serpTitle: string | null, an: Analyzer): { stems: Set<string>; words: string[] } => {
  const stems = new Set<string>();
  const words: string[] = [];
  const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text);
  for (const text of [doc.title, doc.h1, serpTitle ?? '', ...headings])
    for (const s of an.analyse(text, 'list'))
      s.stems.forEach((st, i) => {
        stems.add(st ?? s.words[i] ?? '');
        words.push(s.words[i] ?? '');
      });
  return { stems, words };
};

/** The page names the word where it says what it is about; in German, inside a compound too. */
const inZone = (stem: string, zone: { stems: Set<string>; words: string[] }, lang: string): boolean =>
  zone.stems.has(stem) || (lang === 'de' && stem.length >= MIN_PART && zone.words.some((w) => w.includes(stem)));

/** The stems of a page's title, H1 and SERP title (what another result calls itself counts as used). */
const titleStems = (doc: Doc, serpTitle: string | null, an: Analyzer): string[] =>
  [doc.title, doc.h1, serpTitle ?? ''].flatMap((text) => an.analyse(text, 'list').flatMap((s) => s.stems));

/**
 * Stems the page writes as kinds, not names: in lower case inside sentences at least as often as
 * capitalised (English, Polish); in German, followed by a lower-case word at least as often as by
 * a capitalised one or a figure ("die Kette am Schwert", not "Medivo Pyro 550").
 */
const commonNouns = (doc: Doc, an: Analyzer): Set<string> =>
  new Set([...caseVotes(doc, an)].filter(([, n]) => n >= 0).map(([k]) => k));

/**
 * Indexes of the results that name another thing: a strict minority of pages (of four or more),
 * each with a headline word (above) no other result uses. `query`: the stems of the SERP's
 * questions and related searches. Nothing when most pages have such a word (a set of unrelated
 * pages: no view then).
 */
export const headlinedApart = (
  pages: Doc[],
  an: Analyzer,
  keyword: string[],
  serpTitles: (string | null)[],
  query: Set<string>,
): number[] => {
  if (pages.length < 4) return [];
  const drop = new Set(keyword);
  const counts = pages.map((d) => new Map([...unigramCounts(d, an)].filter(([k]) => !drop.has(k))));
  const used = pages.map((d, i) => new Set([...counts[i]!.keys(), ...titleStems(d, serpTitles[i] ?? null, an)]));
  const df = new Map<string, number>();
  for (const u of used) for (const k of u) df.set(k, (df.get(k) ?? 0) + 1);
  const apart = pages
    .map((d, i) => i)
    .filter((i) => {
      const c = counts[i]!;
      const total = [...c.values()].reduce((a, b) => a + b, 0);
      if (total < MIN_WORDS) return false;
      const zone = zoneWords(pages[i]!, serpTitles[i] ?? null, an);
      const common = commonNouns(pages[i]!, an);
      return [...c]
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP)
        .some(
          ([k, n]) =>
            df.get(k) === 1 &&
            n >= MIN_USES &&
            n >= MIN_SHARE * total &&
            inZone(k, zone, an.lang) &&
            common.has(k) &&
            !query.has(k),
        );
    });
  return apart.length * 2 < pages.length ? apart : [];
};
