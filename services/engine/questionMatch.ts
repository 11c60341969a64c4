import type { ScoringContext } from './context.ts';
import { entityStemsOf } from './keyword.ts';
import { sumsUp } from './conclusion.ts';
import { recLexiconFor } from './text/recLexicon.ts';
import type { Doc, Sentence } from './types.ts';

/**
 * Whether the article answers a question (a PAA question, a sub-topic heading), or at least
 * touches it in one passage: the question's own content stems (besides the keyword's, which the
 * whole article is about) counted with inflected and compound forms.
 */

/** What matching needs: the analyser and the keyword. */
type MatchContext = Pick<ScoringContext, 'an' | 'kw'>;
type PassageContext = Pick<ScoringContext, 'an' | 'kw' | 'lex'>;

/**
 * Two stems name the same word when equal, when they share a start of five letters or more
 * (inflection the stemmer leaves apart), or when the shorter (four letters or more) starts or ends
 * the longer (a compound: "rund" / "rundgedreht", "Unterhalt" / "Unterhaltskosten").
 */
const sameWord = (a: string, b: string): boolean => {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  if (s.length >= 5 && l.startsWith(s.slice(0, 5)) && l.slice(0, s.length) === s) return true;
  return s.length >= 4 && (l.startsWith(s) || l.endsWith(s));
};

/** Share of the needed stems that occur among the given ones, inflections and compounds included. */
export const looseCoverage = (have: Iterable<string>, need: string[]): number => {
  if (!need.length) return 0;
  const pool = [...new Set(have)];
  return need.filter((k) => pool.some((h) => sameWord(h, k))).length / need.length;
};

/** The question's own content stems: besides the keyword's, or all of them when it says nothing else. */
export const questionStems = (q: string, ctx: MatchContext): string[] => {
  const all = [...new Set(ctx.an.contentStems(q))];
  const kw = [...ctx.kw.stems, ...ctx.kw.entityStems];
  const own = all.filter((x) => !kw.some((k) => sameWord(k, x)));
  return own.length ? own : all;
};

/**
 * The article already answers a question when the question's own content stems (besides the
 * keyword's: the whole article is about those) come together: one paragraph or list item holds
 * ≥ 60% of them; a section's heading with its first two sentences ≥ 50% (the question paraphrased
 * as a heading); three consecutive sentences ≥ 67%; or the article as a whole ≥ 75% (an editor
 * reads that as covered, and a task for it as noise). Inflected and compound forms count. A
 * question that asks for an amount needs a figure in that passage as well.
 */
export const answeredInBody = (doc: Doc, q: string, ctx: MatchContext, skip: Sentence | null = null): boolean => {
  const need = questionStems(q, ctx);
  if (!need.length) return true;
  // A question that asks for an amount ("how tight", "ile") is answered only with a figure: a
  // passage that names its words and says "not too tight" touches it without answering.
  const rl = recLexiconFor(ctx.an.lang);
  const amount = rl.amountQuestion.test(q.trim());
  const gives = (sentences: Sentence[]) =>
    !amount || sentences.some((x) => /\p{N}/u.test(x.text) || rl.numberWords.test(x.text));
  const holds = (sentences: Sentence[], share: number, extra: string[] = []) =>
    looseCoverage([...extra, ...sentences.flatMap((x) => x.stems)], need) >= share && gives(sentences);
  // A passage that only dodges the question names its words without answering: left out when asked.
  const ss = skip ? doc.sentences.filter((x) => x !== skip) : doc.sentences;
  const byBlock = new Map<string, Sentence[]>();
  for (const s of ss) {
    const key = `${s.section}:${s.block}`;
    byBlock.set(key, [...(byBlock.get(key) ?? []), s]);
  }
  if ([...byBlock.values()].some((block) => holds(block, 0.6))) return true;
  for (const sec of doc.sections) {
    const head = sec.heading ? ctx.an.contentStems(sec.heading.text) : [];
    const lead = (doc.bySection[sec.index] ?? []).filter((x) => x !== skip).slice(0, 2);
    if (head.length && holds(lead, 0.5, head)) return true;
  }
  for (let i = 0; i < ss.length; i++) {
    const win = ss.slice(i, i + 3).filter((x) => x.section === ss[i]!.section);
    if (holds(win, 0.67)) return true;
  }
  // Spread over the article, an amount is no answer: it must stand where the question's words do.
  return !amount && need.length >= 2 && holds(ss, 0.75);
};

/**
 * A question is about the article's subject when it names the central entity (or, for a keyword
 * without one, a keyword word); a question about a neighbouring subject is another article.
 */
export const aboutEntity = (q: string, ctx: MatchContext): boolean => {
  const ce = entityStemsOf(ctx.kw);
  return looseCoverage(ctx.an.contentStems(q), ce) > 0;
};

/**
 * The stems of the question's words of cost ("cost", „kosztuje”, „kostet”): a question of cost is
 * spoken to by a sentence on the price, in either word („Ile kosztuje …?” beside „Cena usług zależy
 * od …”: a new section after such a dodge was a slot in the wrong place, blind review r27).
 */
const priceStemsOf = (q: string, ctx: MatchContext): Set<string> =>
  new Set(priceWordsIn(q, ctx.an.lang).flatMap((w) => ctx.an.contentStems(w)));

/** The words of a text that name a price or a cost ("cost", „cena”, „kostet”), lower case. */
export const priceWordsIn = (text: string, lang: string): string[] => {
  const price = recLexiconFor(lang).priceWords;
  return (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => price.test(w));
};

/** The question's own stems a passage must hold: auxiliaries and answer verbs say nothing of its subject ("zostanie"). */
export const passageStems = (q: string, ctx: PassageContext): string[] => {
  const glue = ctx.an.contentStems([...ctx.lex.passiveAux, ...ctx.lex.answerVerbs].join(' '));
  return questionStems(q, ctx).filter((k) => !glue.some((g) => sameWord(g, k)));
};

/** A word in at most this share of the page's sentences is one of the question's own, not the page's. */
const RARE_SHARE = 0.2;

/**
 * The sentence where the article already speaks to a question and dodges it or states it vaguely
 * ("fuel use depends on driving style, so no single figure can be given"; "we won't go into it
 * here"): `dodges` tells such wording. The sentence holds at least half of the question's own
 * stems (auxiliaries and answer verbs left out: "zostanie" is no subject), two of them when the
 * question has three or more. The answer belongs there (the caller quotes the sentence, or drops the task when it cannot): a
 * new section further down would repeat or contradict it (blind review r8, slot in the wrong
 * place). The sentence with the most of them wins, the earlier on a tie; null when none.
 */
export const passageOn = (
  doc: Doc,
  q: string,
  ctx: PassageContext,
  dodges: (sentence: string) => boolean,
): Sentence | null => {
  const need = passageStems(q, ctx);
  // A word of cost counts when a sentence names the price in either word, without raising the bar
  // ("costs" is an answer verb, not one of the words a passage must hold).
  const priceStems = priceStemsOf(q, ctx);
  const own = [...need, ...[...priceStems].filter((k) => !need.includes(k))];
  if (!own.length) return null;
  const least = need.length >= 3 ? 2 : 1;
  const onPrice = (s: Sentence) => priceWordsIn(s.text, ctx.an.lang).length;
  const holds = (s: Sentence, k: string) =>
    s.stems.some((h) => sameWord(h, k)) || (priceStems.has(k) && onPrice(s) > 0);
  // The words the page says everywhere (its keyword, "wymiana baterii" on a stuffed page) do not
  // tell which question a sentence speaks to: where the question has rarer words ("kosztuje",
  // "hydraulika"), the sentence holds one of them (a cost question was anchored at a warm-up).
  const prose = doc.sentences.filter((s) => s.kind === 'prose');
  const rare = own.filter((k) => prose.filter((s) => holds(s, k)).length <= RARE_SHARE * prose.length);
  // On a tie, the sentence that names them most often: "the cost, costly, its price" over a
  // passing "lower costs" of another matter.
  const mentions = (s: Sentence) =>
    s.stems.filter((h) => own.some((k) => sameWord(h, k))).length + (priceStems.size ? onPrice(s) : 0);
  let best: { s: Sentence; n: number; m: number } | null = null;
  for (const s of doc.sentences) {
    // A summing-up sentence touches what the article treats elsewhere: the answer goes there (a tools
    // question anchored at "Mein Fazit: … die richtigen Werkzeuge" was a slot in the wrong place, r16, r17).
    if (s.kind !== 'prose' || /[?？]\s*$/u.test(s.text) || sumsUp(doc, s, ctx)) continue;
    const n = own.filter((k) => holds(s, k)).length;
    if (n < least || n / Math.max(1, need.length) < 0.5 || !dodges(s.text)) continue;
    const m = mentions(s);
    if (best && (n < best.n || (n === best.n && m <= best.m))) continue;
    if (rare.length && !rare.some((k) => holds(s, k))) continue;
    best = { s, n, m };
  }
  return best?.s ?? null;
};
