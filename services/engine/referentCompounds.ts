import type { Analyzer } from './document.ts';
import { cosine, median, type Vector } from './referentGroups.ts';
import type { Doc } from './types.ts';

/**
 * The keyword's compounds as a view of what each result is about (issue 24), for German, which
 * names the thing in a closed compound rather than in a name a capital marks (referentNames.ts):
 * a page on a bicycle's brake writes Bremshebel, Scheibenbremse and Fahrradbremse where a page on
 * a car's writes Bremspedal, Bremsflüssigkeit and Hauptbremszylinder. The words beside the keyword
 * inside its compounds are the page's kind of the thing; a result rich in them that shares almost
 * none with the others, while the others share theirs, is about another thing of the same words.
 */

/** A page with this many of the keyword's compounds says which kind of the thing it means. */
const RICH = 12;
/** The pages whose agreement counts: half as many. */
const AGREEING = RICH / 2;
/** Keyword stems this short match inside unrelated words. */
const MIN_STEM = 4;
/** Compound parts this short are linking letters and endings, not words. */
const MIN_PART = 3;

/** The parts a page's words join to the keyword's stems (Fahrradbremse → fahrrad), each √count. */
const partnersOf = (doc: Doc, stems: string[]): { v: Vector; uses: number } => {
  const counts = new Map<string, number>();
  for (const [word] of doc.text.toLowerCase().matchAll(/[\p{L}\p{N}-]+/gu))
    for (const stem of stems) {
      const at = word.indexOf(stem);
      if (at < 0) continue;
      for (const part of [word.slice(0, at), word.slice(at + stem.length)]) {
        const p = part.replace(/^-+|-+$/g, '');
        // The keyword's own compound (Akkutausch for "Akku tauschen") says nothing about which kind.
        if (p.length >= MIN_PART && !stems.some((s) => p.startsWith(s))) counts.set(p, (counts.get(p) ?? 0) + 1);
      }
    }
  let uses = 0;
  const v: Vector = new Map();
  for (const [k, n] of counts) {
    uses += n;
    v.set(k, Math.sqrt(n));
  }
  return { v, uses };
};

/**
 * Indexes of the results whose compounds name another kind of the thing: at least RICH uses, and
 * their closest result less than half as close as the other results (with AGREEING uses or more)
 * typically are to their closest. Nothing outside German, or when too few results use compounds.
 */
export const compoundsApart = (pages: Doc[], an: Analyzer, keywordStems: string[]): number[] => {
  const stems = keywordStems.filter((s) => s.length >= MIN_STEM);
  if (an.lang !== 'de' || pages.length < 4 || !stems.length) return [];
  const views = pages.map((d) => partnersOf(d, stems));
  const sim = views.map((a) => views.map((b) => cosine(a.v, b.v)));
  const closest = (i: number, skip: number) => Math.max(0, ...sim[i]!.filter((_, j) => j !== i && j !== skip));
  return views
    .map((_, i) => i)
    .filter((i) => {
      if (views[i]!.uses < RICH) return false;
      const others = views.map((_, j) => j).filter((j) => j !== i && views[j]!.uses >= AGREEING);
      return others.length >= 2 && closest(i, -1) * 2 < median(others.map((j) => closest(j, i)));
    });
};
