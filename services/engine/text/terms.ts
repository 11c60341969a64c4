import type { Doc } from '../types.ts';
import type { Analyzer } from '../document.ts';

/**
 * Terms of a document: stemmed unigrams and bigrams of adjacent content words (numbers excluded),
 * with the most frequent surface form of each, and 3-word stem shingles for novelty.
 */

export interface TermTable {
  counts: Map<string, number>;
  surfaces: Map<string, Map<string, number>>;
}

const isTermWord = (w: string, an: Analyzer): boolean => w.length > 2 && !an.stop.has(w) && !/\p{N}/u.test(w);

export const termTable = (doc: Doc, an: Analyzer, withSurfaces: boolean): TermTable => {
  const counts = new Map<string, number>();
  const surfaces = new Map<string, Map<string, number>>();
  const add = (key: string, surface: string) => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (withSurfaces) {
      let m = surfaces.get(key);
      if (!m) surfaces.set(key, (m = new Map()));
      m.set(surface, (m.get(surface) ?? 0) + 1);
    }
  };
  for (const s of doc.sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const w = s.words[i] ?? '';
      if (!isTermWord(w, an)) continue;
      add(s.stems[i] ?? w, w);
      const n = s.words[i + 1];
      if (n !== undefined && isTermWord(n, an)) add(`${s.stems[i]} ${s.stems[i + 1]}`, `${w} ${n}`);
    }
  }
  return { counts, surfaces };
};

/** The unigram counts of `termTable` alone (no bigrams, no surfaces), for callers that need only those. */
export const unigramCounts = (doc: Doc, an: Analyzer): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const s of doc.sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const w = s.words[i] ?? '';
      if (!isTermWord(w, an)) continue;
      const k = s.stems[i] ?? w;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return counts;
};

export const bestSurface = (m: Map<string, number> | undefined, fallback: string): string => {
  if (!m) return fallback;
  return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? fallback;
};

export const shinglesOf = (stems: string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i + 2 < stems.length; i++) out.push(`${stems[i]} ${stems[i + 1]} ${stems[i + 2]}`);
  return out;
};

export const docShingles = (doc: Doc): Set<string> => {
  const set = new Set<string>();
  for (const s of doc.sentences) for (const sh of shinglesOf(s.stems)) set.add(sh);
  return set;
};
