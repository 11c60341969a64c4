import { containsPhrase } from '../engine/dimensions/helpers.ts';
import { lexiconFor } from '../engine/text/lexicon.ts';
import type { parseMarkdown } from '../engine/text/markdown.ts';
import { isBylineOrDate } from '../engine/text/frontMatter.ts';
import { applySpans, moveSpans, type Move } from './move.ts';

type Block = ReturnType<typeof parseMarkdown>['blocks'][number];

/** Sentences of a paragraph, each ending at . ! ? followed by a space and a capital or a figure. */
export const sentencesOf = (s: string): string[] =>
  s
    .trim()
    .split(/(?<=[.!?])\s+(?=\p{Lu}|\p{N})/u)
    .map((x) => x.trim())
    .filter(Boolean);

const isQuestion = (s: string): boolean => /[?？]$/u.test(s);

/** The keyword as a phrase, or each of its words (by their first five letters, for inflection). */
export const namesQuery = (s: string, keyword: string): boolean => {
  const low = s.toLowerCase();
  if (low.includes(keyword.toLowerCase())) return true;
  const words = keyword
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 2);
  return words.length > 0 && words.every((w) => low.includes(w.slice(0, 5)));
};

/** The paragraphs that are the article's text: not its byline, not its date line. */
export const bodyParagraphs = (blocks: readonly Block[]): Block[] =>
  blocks.filter((b) => b.kind === 'paragraph' && !isBylineOrDate(b.text));

/** The keyword, as a phrase, stands more than once in the sentence. */
export const repeatsKeyword = (s: string, keyword: string): boolean => {
  const k = keyword.trim().toLowerCase();
  return k !== '' && s.toLowerCase().split(k).length > 2;
};

const wordsOf = (s: string): string[] => s.toLowerCase().match(/\p{L}+/gu) ?? [];

/** Where a candidate answer stands: its paragraph, its place in it, and the article's blocks. */
export interface AnswerPlace {
  block: Block;
  index: number;
  sentences: readonly string[];
  blocks: readonly Block[];
}

/** A sentence that must not be taken as the answer (items.ts: the engine's reading and the context). */
export type Unfit = (sentence: string, at: AnswerPlace) => boolean;

/**
 * The answer: a statement of the text that names the query. A question ("Looking for X?")
 * restates the query and answers nothing; a byline or a date line is not the text; a sentence that
 * clears its throat ("In this article we will answer what X is") announces the answer instead of
 * giving it (the engine's list for the language, as its bluf dimension reads it). Of these, the
 * first that says what the subject is or does (an answer verb of the language) is the answer;
 * without one, the first that states a figure; else none. A sentence that names the keyword twice
 * is stuffing, not an answer (the preview of a poor article once opened with "The X question …
 * because the X debate is one …"); `unfit` (answerFit.ts) rules out what the engine reads as
 * saying nothing and what depends on its place.
 */
export const answerSentence = (
  blocks: readonly Block[],
  keyword: string,
  language: string,
  unfit: Unfit = () => false,
): { sentence: string; block: Block } | null => {
  const { throatClearing, answerVerbs } = lexiconFor(language);
  const statements = bodyParagraphs(blocks).flatMap((block) =>
    sentencesOf(block.raw)
      .filter(
        (s, i, all) =>
          !isQuestion(s) &&
          !unfit(s, { block, index: i, sentences: all, blocks }) &&
          !/^[#>|*-]/.test(s) &&
          namesQuery(s, keyword) &&
          containsPhrase(s.toLowerCase(), throatClearing) === null &&
          !repeatsKeyword(s, keyword),
      )
      .map((sentence) => ({ sentence, block })),
  );
  return (
    statements.find(
      (x) => opensWithQuery(x.sentence, keyword) && wordsOf(x.sentence).some((w) => answerVerbs.includes(w)),
    ) ??
    statements.find((x) => wordsOf(x.sentence).some((w) => answerVerbs.includes(w))) ??
    // Without an answer verb ("Kraków zbuduje 42 km …", a news lead), only a sentence with a figure:
    // a statement of fact about the query, not any sentence that happens to name it.
    statements.find((x) => /\p{N}/u.test(x.sentence)) ??
    null
  );
};

/** How near its start an answer names its subject ("A bond is …", "Descaling a kettle takes …"). */
const SUBJECT_WORDS = 6;

/** The sentence names the query among its first words: it speaks about it, not of something else. */
const opensWithQuery = (s: string, keyword: string): boolean =>
  namesQuery(
    wordsOf(s)
      .slice(0, SUBJECT_WORDS + keyword.split(/\s+/).length)
      .join(' '),
    keyword,
  );

/**
 * Where the answer goes: the start of the first block under the H1, after a byline or date line
 * that stands directly under it (the byline belongs to the headline, the answer opens the text).
 */
export const openingBlock = (blocks: readonly Block[]): Block | null => {
  let i = blocks[0]?.kind === 'heading' && blocks[0].level === 1 ? 1 : 0;
  while (blocks[i]?.kind === 'paragraph' && isBylineOrDate(blocks[i]!.text)) i++;
  return blocks[i] ?? null;
};

export interface AnswerFirst {
  /** null: no statement names the query. */
  move: Move | null;
  /** The text already opens with its answer. */
  already: boolean;
  /** What the card shows: the text from the opening to the answer's paragraph, before and after. */
  before: string;
  after: string;
}

/** `struct:answer-first`: the answer moved (not copied) to the opening; one sentence, in one place. */
export const answerFirst = (
  markdown: string,
  blocks: readonly Block[],
  keyword: string,
  language: string,
  unfit?: Unfit,
): AnswerFirst => {
  const opening = openingBlock(blocks);
  const answer = answerSentence(blocks, keyword, language, unfit);
  if (!opening || !answer) return { move: null, already: false, before: '', after: '' };
  const already = answer.block === opening && sentencesOf(opening.raw)[0] === answer.sentence;
  const move: Move = { kind: 'move', sentence: answer.sentence, from: answer.block.raw, to: opening.raw };
  const spans = already ? null : moveSpans(markdown, move);
  if (!spans) return { move: null, already, before: opening.raw, after: opening.raw };
  const start = markdown.indexOf(opening.raw);
  const end = markdown.indexOf(answer.block.raw) + answer.block.raw.length;
  const before = markdown.slice(start, end);
  const shifted = spans.map((s) => ({ ...s, start: s.start - start, end: Math.min(s.end, end) - start }));
  return { move, already, before, after: applySpans(before, shifted).trimEnd() };
};
