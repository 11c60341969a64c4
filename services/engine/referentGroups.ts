/**
 * The grouping arithmetic of the referent check (referent.ts, referentVote.ts): similarity of two
 * weighted term vectors, and the split of a set of pages into a majority and a far minority.
 */

export type Vector = Map<string, number>;

export const OUTLIER_RATIO = 0.6;

export const cosine = (a: Vector, b: Vector): number => {
  let dot = 0,
    na = 0,
    nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Mean of the pairwise similarities between two groups (or within one). */
const linkage = (sim: number[][], a: number[], b: number[]): number => {
  let sum = 0,
    n = 0;
  for (const i of a)
    for (const j of b)
      if (i !== j) {
        sum += sim[i]?.[j] ?? 0;
        n++;
      }
  return n ? sum / n : 0;
};

/**
 * The pages grouped by what they are about: average-linkage clustering of their pairwise
 * similarities down to two groups. The smaller group is another referent when it is a strict
 * minority and what joins it to the majority is under OUTLIER_RATIO × what holds the majority
 * together; otherwise all pages mean one thing.
 */
export const minorityOf = (sim: number[][]): number[] => {
  const n = sim.length;
  let groups = Array.from({ length: n }, (_, i) => [i]);
  while (groups.length > 2) {
    let best = [-1, -1, -Infinity] as [number, number, number];
    for (let a = 0; a < groups.length; a++)
      for (let b = a + 1; b < groups.length; b++) {
        const l = linkage(sim, groups[a]!, groups[b]!);
        if (l > best[2]) best = [a, b, l];
      }
    const [a, b] = best;
    groups = [...groups.filter((_, i) => i !== a && i !== b), [...groups[a]!, ...groups[b]!]];
  }
  const [x, y] = [...groups].sort((p, q) => p.length - q.length || p[0]! - q[0]!) as [number[], number[]];
  if (x.length * 2 >= n) return [];
  const within = linkage(sim, y, y);
  return linkage(sim, x, y) < OUTLIER_RATIO * within ? [...x].sort((a, b) => a - b) : [];
};
