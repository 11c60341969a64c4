import type { Analyzer } from './document.ts';
import type { TermTarget } from './benchStats.ts';
import { bestSurface, type termTable } from './text/terms.ts';
import { generalWordsFor, inLanguage } from './text/stopwords.ts';
import { ALL_INTENTS, intentModifiers, lexiconFor } from './text/lexicon.ts';
import type { Doc } from './types.ts';

/**
 * What the competitors agree on: the tfidf term targets and the eav attributes. A term or an
 * attribute qualifies when more than half of the competitors that set targets use it, and at
 * least two of them: with two or three pages, a 40% share is one page, and one page (a padded or
 * stuffed one above all) then dictates its own generic words ("said", "something", "always").
 */

export interface TargetPage {
  doc: Doc;
  table: ReturnType<typeof termTable>;
}

/**
 * More than half of the pages, and at least two; one, when the audited page's own copy took the
 * other place among the results (a SERP of two pages, one of them this page, still names the
 * terms the page lacks; falling back to the keyword alone would reward it for repeating it).
 */
export const agreed = (d: number, pages: number, selfListed = false): boolean =>
  d >= (selfListed ? 1 : 2) && d > pages / 2;

/**
 * A word a client can be told to add: in the page's language, neither a stop word nor a
 * general-language word. A phrase qualifies when each word is in the language and one is topical.
 */
export const topicalSurface = (surface: string, an: Analyzer): boolean => {
  const general = generalWordsFor(an.lang);
  const words = surface.split(/\s+/).filter(Boolean);
  return words.every((w) => inLanguage(w, an.lang)) && words.some((w) => !an.stop.has(w) && !general.has(w));
};

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
};

/** Term targets: agreed terms ranked by df/M × mean tf-idf, the top 50, weights relative to the top. */
export const termTargets = (
  basis: TargetPage[],
  idf: (k: string) => number,
  an: Analyzer,
  selfListed = false,
): TermTarget[] => {
  const M = basis.length;
  const incDf = new Map<string, number>();
  for (const x of basis) for (const k of x.table.counts.keys()) incDf.set(k, (incDf.get(k) ?? 0) + 1);
  const rows: (TermTarget & { imp: number })[] = [];
  for (const [k, d] of incDf) {
    if (!agreed(d, M, selfListed)) continue;
    const surfaces = new Map<string, number>();
    for (const x of basis)
      for (const [s, n] of x.table.surfaces.get(k) ?? []) surfaces.set(s, (surfaces.get(s) ?? 0) + n);
    const surface = bestSurface(surfaces, k);
    if (!topicalSurface(surface, an)) continue;
    const rates = basis
      .filter((x) => x.table.counts.has(k))
      .map((x) => ((x.table.counts.get(k) ?? 0) / x.doc.words) * 1000);
    const meanTfIdf = (rates.reduce((a, r) => a + r, 0) / M) * idf(k);
    rows.push({
      key: k,
      surface,
      weight: 0,
      p25: percentile(rates, 0.25),
      p90: percentile(rates, 0.9),
      imp: (d / M) * meanTfIdf,
    });
  }
  rows.sort((a, b) => b.imp - a.imp || (a.key < b.key ? -1 : 1));
  const top = rows.slice(0, 50);
  const maxImp = top[0]?.imp ?? 1;
  return top.map((r) => ({
    key: r.key,
    surface: r.surface,
    weight: Math.round((r.imp / maxImp) * 1000) / 1000,
    p25: r.p25,
    p90: r.p90,
  }));
};

/** Expected attributes: topical words within 5 tokens of the entity on agreeing competitors. */
export const expectedAttributes = (
  basis: TargetPage[],
  ce: string[],
  an: Analyzer,
): { stem: string; surface: string }[] => {
  const general = generalWordsFor(an.lang);
  // What a searcher wants ("best", "opinie", "kaufen") is said beside the entity on every page of a
  // commercial SERP, and is no attribute of the thing.
  const modifiers = intentModifiers(lexiconFor(an.lang), ALL_INTENTS);
  const attrDf = new Map<string, number>();
  const attrSurf = new Map<string, Map<string, number>>();
  for (const x of basis) {
    const seen = new Set<string>();
    for (const s of x.doc.sentences) {
      const idx = s.stems.map((st, i) => (ce.includes(st) ? i : -1)).filter((i) => i >= 0);
      for (const i of idx)
        for (let j = Math.max(0, i - 5); j <= Math.min(s.words.length - 1, i + 5); j++) {
          const w = s.words[j] ?? '';
          const st = s.stems[j] ?? '';
          if (
            w.length < 4 ||
            an.stop.has(w) ||
            general.has(w) ||
            modifiers.has(w) ||
            ce.includes(st) ||
            /\p{N}/u.test(w)
          )
            continue;
          if (!inLanguage(w, an.lang)) continue;
          seen.add(st);
          let m = attrSurf.get(st);
          if (!m) attrSurf.set(st, (m = new Map()));
          m.set(w, (m.get(w) ?? 0) + 1);
        }
    }
    for (const st of seen) attrDf.set(st, (attrDf.get(st) ?? 0) + 1);
  }
  return [...attrDf.entries()]
    .filter(([, d]) => agreed(d, basis.length))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 15)
    .map(([stem]) => ({ stem, surface: bestSurface(attrSurf.get(stem), stem) }));
};
