import { diffSentences, diffWordsWithSpace, type ChangeObject } from 'diff';
import type { Edit } from './items.ts';
import { moveSpans, type Span } from './move.ts';
import { cutSpans } from './stuffingCuts.ts';

/**
 * Where an edit lands on the original text, as replacements of [start, end). Every selected item
 * is placed on the original, so no item depends on another's output; two items clash only where
 * they change the same characters.
 */

const wordsOf = (s: string): string => s.split(/\s+/).filter(Boolean).join(' ');

/** The parts of a diff of BEFORE against AFTER as replacements on the text, BEFORE starting at `at`. */
const diffSpans = (at: number, parts: readonly ChangeObject<string>[]): Span[] => {
  const out: Span[] = [];
  let pos = at;
  let open: Span | null = null;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (open) out.push(open);
      open = null;
      pos += part.value.length;
      continue;
    }
    open ??= { start: pos, end: pos, text: '' };
    if (part.added) open.text += part.value;
    else open.end = pos += part.value.length;
  }
  if (open) out.push(open);
  return out;
};

/**
 * A change of layout only (the same words, other line breaks: a paragraph broken in two) touches
 * only the whitespace it changes, and a rewrite of a paragraph only the sentences it rewrites, so
 * a sentence cut, moved or rewritten elsewhere in the same paragraph still fits.
 */
const replaceSpans = (at: number, before: string, after: string): Span[] =>
  diffSpans(at, wordsOf(after) === wordsOf(before) ? diffWordsWithSpace(before, after) : diffSentences(before, after));

/** null when the edit's BEFORE or anchor is not in the text verbatim. */
export const spansOf = (markdown: string, edit: Exclude<Edit, { kind: 'meta' }>): Span[] | null => {
  if (edit.kind === 'move') return moveSpans(markdown, edit);
  if (edit.kind === 'cut') return cutSpans(markdown, edit);
  if (edit.kind === 'replace') {
    let start = markdown.indexOf(edit.before);
    if (start < 0 || edit.before === '') return null;
    if (edit.after !== edit.before && edit.after !== '') return replaceSpans(start, edit.before, edit.after);
    let end = start + edit.before.length;
    // A removed sentence takes one neighbouring space with it.
    if (edit.after === '' && markdown[end] === ' ') end++;
    else if (edit.after === '' && markdown[start - 1] === ' ') start--;
    return [{ start, end, text: edit.after }];
  }
  if (edit.placement === 'end') {
    const at = markdown.replace(/\s+$/, '').length;
    return [{ start: at, end: at, text: `\n\n${edit.after}` }];
  }
  const found = markdown.indexOf(edit.anchor);
  if (found < 0 || edit.anchor === '') return null;
  const at = edit.placement === 'before' ? found : found + edit.anchor.length;
  return [{ start: at, end: at, text: edit.placement === 'before' ? `${edit.after}\n\n` : `\n\n${edit.after}` }];
};

/** Two changes touch the same characters, or insert at the same place, or one inserts inside the other. */
const clashes = (a: Span, b: Span): boolean =>
  (a.start < b.end && b.start < a.end) ||
  (a.start === a.end && b.start === b.end && b.start === a.start) ||
  (a.start === a.end && a.start > b.start && a.start < b.end) ||
  (b.start === b.end && b.start > a.start && b.start < a.end);

/**
 * A cut that shares only whitespace with another change gives that whitespace up: two sentences
 * cut side by side, or a cut next to a paragraph break, each took the same space between them.
 */
const yieldSpace = <S extends Span>(markdown: string, cut: S, other: Span): S | null => {
  const from = Math.max(cut.start, other.start);
  const to = Math.min(cut.end, other.end);
  if (cut.text !== '' || from >= to || markdown.slice(from, to).trim() !== '') return null;
  const kept: S = cut.start < from ? { ...cut, end: from } : { ...cut, start: to };
  return kept.start < kept.end && markdown.slice(kept.start, kept.end).trim() !== '' ? kept : null;
};

/**
 * The placed changes with `mine` added, or null when it clashes with one of them. Spans are
 * copied, never changed in place: the caller keeps the old list if the item is not kept.
 */
export const fitSpans = <S extends Span>(markdown: string, placed: readonly S[], mine: readonly S[]): S[] | null => {
  const out = placed.map((s) => ({ ...s }));
  const added: S[] = [];
  for (const m0 of mine) {
    let m = { ...m0 };
    for (const [i, s] of out.entries()) {
      if (!clashes(m, s)) continue;
      const shrunk = yieldSpace(markdown, m, s);
      const other = shrunk ? null : yieldSpace(markdown, s, m);
      if (shrunk) m = shrunk;
      else if (other) out[i] = other;
      else return null;
    }
    if (out.some((s) => clashes(m, s))) return null;
    added.push(m);
  }
  return [...out, ...added];
};

/**
 * For the preview's marks (the spans sorted by position): a paragraph break placed as the space it
 * changes would mark nothing a reader sees, so it is shown with the text it opens, up to the next
 * change or the paragraph's end: the new paragraph is marked as changed.
 */
export const showBreaks = <S extends Span>(markdown: string, sorted: readonly S[]): S[] =>
  sorted.map((s, i) => {
    if (markdown.slice(s.start, s.end).trim() !== '' || s.text.trim() !== '' || !s.text.includes('\n\n')) return s;
    const paragraphEnd = markdown.indexOf('\n\n', s.end);
    const end = Math.min(sorted[i + 1]?.start ?? markdown.length, paragraphEnd < 0 ? markdown.length : paragraphEnd);
    return end <= s.end ? s : { ...s, end, text: s.text + markdown.slice(s.end, end) };
  });
