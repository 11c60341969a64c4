import type { Analyzer } from './document.ts';
import { cosine, median, minorityOf, type Vector } from './referentGroups.ts';

/**
 * Who decides which meaning the SERP intends (issue 12): the results that say something, and the
 * search engine's own words for the query. A result whose text is mostly keyword-stuffed sentences
 * and filler (gaming.ts) says little beyond the keyword, so what it shares with a page is generic
 * prose ("said", "sometimes", "people"), the same with a page on either meaning: it gives its vote
 * to the SERP's questions (without questions it keeps it, as before). People Also Ask and related
 * searches are what the engine shows for the query's dominant meaning: they vote when fewer than
 * four results do (three results, one a stuffed page, leave one against one; three that vote leave
 * one page the odd one out whatever it means), and a result the pages alone set apart is left out
 * only when the questions agree that it is farther from the query than the majority is (under four
 * voters: far below it).
 */

/** A result votes when at least this share of its words is informative (not stuffed, not filler). */
export const VOTER_SHARE = 0.5;
/**
 * Under four voting results, a page set apart (or an audited page judged apart) must be this far
 * below the others' likeness to the questions: two or three pages share few words, so one of them
 * is always the least like the rest, whatever it is about.
 */
export const QUESTIONS_CONFIRM = 0.5;
/** Fewer voting results than this and the questions vote as one more. */
const FEW_VOTERS = 4;

/** Content stems of the People Also Ask questions and related searches, counted. */
export const queryCounts = (query: string[], an: Analyzer): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const text of query)
    for (const s of an.analyse(text, 'list'))
      s.words.forEach((w, i) => {
        if (w.length <= 2 || an.stop.has(w) || /\p{N}/u.test(w)) return;
        const k = s.stems[i] ?? w;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      });
  return counts;
};

/** The minority among the voters, the query's words voting as one more result (its index last). */
const votedMinority = (vs: Vector[], voters: number[], query: Vector | null): number[] => {
  const all = [...voters.map((i) => vs[i]!), ...(query ? [query] : [])];
  if (all.length < 3) return [];
  const out = minorityOf(all.map((a) => all.map((b) => cosine(a, b))));
  // The query's own words set apart: the results agree with each other, not with it; nothing decided.
  return out.includes(voters.length) ? [] : out.map((j) => voters[j]!);
};

/**
 * The results about another referent. `informative[i]`: the share of page i's words that are not
 * stuffed or filler; `query`: the query's words weighed as the results are (empty without PAA and
 * related searches).
 */
export const outliersOf = (vs: Vector[], informative: number[], query: Vector): number[] => {
  const asks = query.size > 0;
  // Without questions to stand in for them, stuffed pages keep their vote (two pages decide nothing).
  const voters = vs.map((_, i) => i).filter((i) => !asks || (informative[i] ?? 1) >= VOTER_SHARE);
  const few = voters.length < FEW_VOTERS;
  const outliers = votedMinority(vs, voters, asks && few ? query : null);
  if (!asks || !outliers.length) return outliers;
  return queryConfirms(vs, voters, outliers, query, few ? QUESTIONS_CONFIRM : 1) ? outliers : [];
};

/**
 * The query confirms: each page set apart is less like its questions than `ratio` × the other
 * voters' median (1: merely below it).
 */
export const queryConfirms = (
  vs: Vector[],
  voters: number[],
  outliers: number[],
  query: Vector,
  ratio = 1,
): boolean => {
  const near = (i: number) => cosine(vs[i]!, query);
  const bar = ratio * median(voters.filter((i) => !outliers.includes(i)).map(near));
  return outliers.every((i) => near(i) < bar);
};
