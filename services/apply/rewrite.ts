import type { Edit, PlannedItem } from './items.ts';
import { moveSpans, type Span as Placed } from './move.ts';

export type SkipReason = 'not_found' | 'overlapping' | 'not_selectable' | 'lowers_score';

export interface Rewrite {
  markdown: string;
  title: string | null;
  description: string | null;
  appliedIds: string[];
  skipped: { id: string; reason: SkipReason; message: string }[];
  /** What went in, for the preview's BEFORE/AFTER cards. */
  applied: { id: string; label: string; before: string; after: string }[];
  /** Where the text changed: each replacement on the original Markdown, for the preview's marks. */
  changes: { id: string; start: number; end: number; text: string }[];
}

const MESSAGES: Record<SkipReason, string> = {
  not_found: 'the fragment to change was not found in the article',
  overlapping: 'it changes the same fragment as another selected item',
  not_selectable: 'it cannot be applied automatically',
  lowers_score: 'applied to this text it lowered the measured score, so it was left out',
};

/** Scores a candidate text (the engine with the audit's keyword, language and SERP baseline). */
export type Scorer = (markdown: string, title: string | null) => number | null;

interface Span extends Placed {
  id: string;
  order: number;
}

/** Two changes touch the same characters, or insert at the same place, or one inserts inside the other. */
const clashes = (a: Placed, b: Placed): boolean =>
  (a.start < b.end && b.start < a.end) ||
  (a.start === a.end && b.start === b.end && b.start === a.start) ||
  (a.start === a.end && a.start > b.start && a.start < b.end) ||
  (b.start === b.end && b.start > a.start && b.start < a.end);

/** Where an edit lands on the original text; null when its BEFORE or anchor is not there verbatim. */
const spansOf = (markdown: string, edit: Exclude<Edit, { kind: 'meta' }>): Placed[] | null => {
  if (edit.kind === 'move') return moveSpans(markdown, edit);
  if (edit.kind === 'replace') {
    let start = markdown.indexOf(edit.before);
    if (start < 0 || edit.before === '') return null;
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

/**
 * The deterministic rewrite (spec 2.6 result): each selected item's BEFORE → AFTER where its BEFORE
 * is found verbatim in the Markdown, additions at their anchor, meta items into title/description.
 * Items are placed on the original text first, so no item depends on another's output; two items
 * touching the same characters keep the first in item order and skip the other ("overlapping").
 *
 * With a scorer, an item is kept only if the text with it (and the items kept before it) scores
 * at least as well as without it: an edit that does not fit where it lands (a sentence moved next
 * to its own copy, a hedge removed from a sentence the engine reads as an answer) is skipped
 * (`lowers_score`) instead of making the article worse. Each candidate costs one engine run.
 */
export const rewrite = (
  markdown: string,
  items: readonly PlannedItem[],
  selectedIds: readonly string[],
  score?: Scorer,
): Rewrite => {
  const selected = new Set(selectedIds);
  const out: Rewrite = {
    markdown,
    title: null,
    description: null,
    appliedIds: [],
    skipped: [],
    applied: [],
    changes: [],
  };
  const skip = (id: string, reason: SkipReason) => out.skipped.push({ id, reason, message: MESSAGES[reason] });
  const spans: Span[] = [];
  const build = (list: readonly Span[]): string => {
    let md = markdown;
    // From the end backwards; at one position a replacement goes before an insertion there, so
    // the insertion lands in front of the replaced text instead of being overwritten by it.
    for (const s of [...list].sort((a, b) => b.start - a.start || b.end - a.end || b.order - a.order))
      md = md.slice(0, s.start) + s.text + md.slice(s.end);
    return md;
  };
  let best = score ? (score(markdown, null) ?? 0) : 0;
  /** Keeps the change if it does not lower the score; `text` and `title` are the article with it. */
  const keeps = (text: string, title: string | null): boolean => {
    if (!score) return true;
    const s = score(text, title) ?? 0;
    if (s < best) return false;
    best = s;
    return true;
  };
  items.forEach(({ item, edit }, order) => {
    if (!selected.has(item.id)) return;
    if (!item.selectable || !edit) return skip(item.id, 'not_selectable');
    if (edit.kind === 'meta') {
      if (edit.field === 'title' && !keeps(build(spans), edit.value)) return skip(item.id, 'lowers_score');
      out[edit.field] = edit.value;
      out.appliedIds.push(item.id);
      out.applied.push({ id: item.id, label: item.label, before: item.before, after: edit.value });
      return;
    }
    const placed = spansOf(markdown, edit);
    if (!placed) return skip(item.id, 'not_found');
    const mine = placed.map((p) => ({ ...p, id: item.id, order }));
    if (mine.some((m) => spans.some((s) => clashes(m, s)))) return skip(item.id, 'overlapping');
    if (!keeps(build([...spans, ...mine]), out.title)) return skip(item.id, 'lowers_score');
    spans.push(...mine);
    out.appliedIds.push(item.id);
    out.applied.push({ id: item.id, label: item.label, before: item.before, after: item.after });
  });
  out.markdown = build(spans);
  out.changes = [...spans]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map(({ id, start, end, text }) => ({ id, start, end, text }));
  out.appliedIds = items.map((p) => p.item.id).filter((id) => out.appliedIds.includes(id));
  return out;
};
