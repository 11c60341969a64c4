import { removableStuffing } from '../engine/grounding.ts';
import { stripInline } from '../engine/text/markdown.ts';
import { recLexiconFor } from '../engine/text/recLexicon.ts';
import { splitSentences } from '../engine/text/segment.ts';
import { leansBack } from './answerFit.ts';
import { norm, type EngineView } from './engineView.ts';
import type { Span } from './move.ts';

/**
 * Keyword stuffing cut as the named sentences (issue 23: "stuffing is offered as concrete removals
 * of the named occurrences"). The engine offers such a cut one sentence at a time, and only when
 * that one sentence alone moves the score; on a page stuffed in many places no single cut does, so
 * apply offers, per paragraph, every sentence the engine's own rules allow cutting:
 * - the engine scores it as keyword stuffing (gaming.ts) and would cut it whole
 *   (grounding.ts removableStuffing: no figure, named source or definition, no yes/no answer,
 *   at most four words of its own besides the keyword's);
 * - the sentence after it, if kept, does not lean on it ("What is X? This is a question …" keeps
 *   its question) and is not a bare answer to it;
 * - the sentence before it does not announce it (ends with a colon);
 * - a question that ends its paragraph stays: the next block answers it (a pseudo-heading);
 * - the reply to a question goes only with its question.
 * A paragraph of stuffing alone goes whole, unless it is all its section has. A paragraph repeated
 * word for word is one item that cuts every copy.
 */

export interface Cut {
  kind: 'cut';
  /** The paragraph as it stands in the text (every copy of it when `every`). */
  within: string;
  sentences: string[];
  every: boolean;
}

type Block = { kind: string; level: number; text: string; raw: string };

/** The sentences of a paragraph's raw text, as the rewrite places them. */
const sentencesIn = (raw: string): string[] => splitSentences(raw).filter((s) => raw.includes(s));

/** The sentences of `within` to cut, or none. */
export const stuffedCutsIn = (within: string, view: EngineView, skip: ReadonlySet<string>): string[] => {
  const stuffed = view.cuttable;
  const rl = recLexiconFor(view.ctx.lang);
  const sentences = sentencesIn(within);
  const cut = new Array<boolean>(sentences.length).fill(false);
  for (let i = sentences.length - 1; i >= 0; i--) {
    const s = sentences[i]!;
    const plain = norm(stripInline(s));
    if (!stuffed.has(plain) || skip.has(plain) || !removableStuffing(plain, view.ctx)) continue;
    const next = sentences[i + 1];
    // A question that ends its paragraph is answered by what follows (a pseudo-heading): it stays.
    if (next === undefined && /[?？]\s*$/u.test(plain)) continue;
    if (next !== undefined && !cut[i + 1]) {
      const n = norm(stripInline(next));
      if (leansBack(n, view) || rl.shortAnswer.test(n)) continue;
    }
    if (i > 0 && /:\s*$/u.test(sentences[i - 1]!)) continue;
    cut[i] = true;
  }
  // A sentence right after a question replies to it: it goes only with its question.
  for (let i = 1; i < sentences.length; i++)
    if (cut[i] && !cut[i - 1] && /[?？]\s*$/u.test(sentences[i - 1]!)) {
      cut[i] = false;
    }
  return sentences.filter((_, i) => cut[i]);
};

/**
 * The replacements of a cut inside one copy of the paragraph starting at `at`: runs of cut
 * sentences with only spaces between them go as one, with one neighbouring space; the whole
 * paragraph goes with the blank lines after it.
 */
const spansAt = (markdown: string, at: number, within: string, sentences: readonly string[]): Span[] => {
  const ranges: [number, number][] = [];
  let from = 0;
  for (const s of sentences) {
    const i = within.indexOf(s, from);
    if (i < 0) return [];
    ranges.push([at + i, at + i + s.length]);
    from = i + s.length;
  }
  const kept = sentencesIn(within).filter((s) => !sentences.includes(s));
  if (!kept.length) {
    let end = at + within.length;
    while (markdown[end] === '\n') end++;
    return [{ start: at, end, text: '' }];
  }
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && /^\s*$/u.test(markdown.slice(last[1], r[0]))) last[1] = r[1];
    else merged.push([...r]);
  }
  return merged.map(([s, e]) => {
    if (/[ \t]/u.test(markdown[e] ?? '') && e < at + within.length) return { start: s, end: e + 1, text: '' };
    if (/\s/u.test(markdown[s - 1] ?? '') && s > at) return { start: s - 1, end: e, text: '' };
    return { start: s, end: e, text: '' };
  });
};

/** Where a cut lands on the original: in the paragraph's first copy, or in every copy. null if not found. */
export const cutSpans = (markdown: string, c: Cut): Span[] | null => {
  const out: Span[] = [];
  for (let at = markdown.indexOf(c.within); at >= 0; at = markdown.indexOf(c.within, at + c.within.length)) {
    // A copy is a paragraph of its own, not the same words inside a longer one.
    const end = at + c.within.length;
    if ((at > 0 && markdown[at - 1] !== '\n') || (end < markdown.length && markdown[end] !== '\n')) continue;
    const spans = spansAt(markdown, at, c.within, c.sentences);
    if (!spans.length) return null;
    out.push(...spans);
    if (!c.every) break;
  }
  return out.length ? out : null;
};

/** The paragraph after the cut: what the card's AFTER shows ('' when it goes whole). */
export const afterCut = (within: string, sentences: readonly string[]): string => {
  const spans = spansAt(within, 0, within, sentences);
  return [...spans]
    .sort((a, b) => b.start - a.start)
    .reduce((t, s) => t.slice(0, s.start) + s.text + t.slice(s.end), within)
    .trim();
};

/** Paragraphs with stuffing to cut: each distinct paragraph once, with how many copies the text has. */
export const stuffedParagraphs = (
  blocks: readonly Block[],
  view: EngineView | null,
  skip: ReadonlySet<string>,
): { block: Block; sentences: string[]; copies: number }[] => {
  if (!view || !view.stuffed.length) return [];
  const out: { block: Block; sentences: string[]; copies: number }[] = [];
  const seen = new Set<string>();
  blocks.forEach((b, i) => {
    if (b.kind !== 'paragraph' || seen.has(b.raw)) return;
    seen.add(b.raw);
    const sentences = stuffedCutsIn(b.raw, view, skip);
    if (!sentences.length) return;
    // A section whose only text this paragraph is keeps it: cut whole, the heading would stand empty.
    const whole = sentencesIn(b.raw).every((s) => sentences.includes(s));
    const alone =
      (blocks[i - 1]?.kind === 'heading' || i === 0) &&
      (blocks[i + 1] === undefined || blocks[i + 1]!.kind === 'heading');
    if (whole && alone) return;
    out.push({ block: b, sentences, copies: blocks.filter((x) => x.kind === 'paragraph' && x.raw === b.raw).length });
  });
  return out;
};
