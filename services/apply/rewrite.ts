import type { PlannedItem } from './items.ts';

export type SkipReason = 'not_found' | 'overlapping' | 'not_selectable' | 'lowers_score';

export interface Rewrite {
  markdown: string;
  title: string | null;
  description: string | null;
  appliedIds: string[];
  skipped: { id: string; reason: SkipReason; message: string }[];
  /** What went in, for the preview's BEFORE/AFTER cards. */
  applied: { id: string; label: string; before: string; after: string }[];
}

const MESSAGES: Record<SkipReason, string> = {
  not_found: 'the fragment to change was not found in the article',
  overlapping: 'it changes the same fragment as another selected item',
  not_selectable: 'it cannot be applied automatically',
  lowers_score: 'applied to this text it lowered the measured score, so it was left out',
};

/** Scores a candidate text (the engine with the audit's keyword, language and SERP baseline). */
export type Scorer = (markdown: string, title: string | null) => number | null;

interface Span {
  id: string;
  start: number;
  end: number;
  text: string;
  order: number;
}

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
  const out: Rewrite = { markdown, title: null, description: null, appliedIds: [], skipped: [], applied: [] };
  const skip = (id: string, reason: SkipReason) => out.skipped.push({ id, reason, message: MESSAGES[reason] });
  const spans: Span[] = [];
  const build = (list: readonly Span[]): string => {
    let md = markdown;
    for (const s of [...list].sort((a, b) => b.start - a.start || b.order - a.order))
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
    let start: number;
    let end: number;
    let text: string;
    if (edit.kind === 'replace') {
      start = markdown.indexOf(edit.before);
      if (start < 0 || edit.before === '') return skip(item.id, 'not_found');
      end = start + edit.before.length;
      text = edit.after;
      // A removed sentence takes one neighbouring space with it.
      if (text === '' && markdown[end] === ' ') end++;
    } else if (edit.placement === 'end') {
      start = end = markdown.replace(/\s+$/, '').length;
      text = `\n\n${edit.after}`;
    } else {
      const at = markdown.indexOf(edit.anchor);
      if (at < 0 || edit.anchor === '') return skip(item.id, 'not_found');
      start = end = edit.placement === 'before' ? at : at + edit.anchor.length;
      text = edit.placement === 'before' ? `${edit.after}\n\n` : `\n\n${edit.after}`;
    }
    const clash = spans.some(
      (s) =>
        (start < s.end && s.start < end) ||
        (start === end && s.start === s.end && s.start === start) ||
        (start === end && start > s.start && start < s.end) ||
        (s.start === s.end && s.start > start && s.start < end),
    );
    if (clash) return skip(item.id, 'overlapping');
    const span = { id: item.id, start, end, text, order };
    if (!keeps(build([...spans, span]), out.title)) return skip(item.id, 'lowers_score');
    spans.push(span);
    out.appliedIds.push(item.id);
    out.applied.push({ id: item.id, label: item.label, before: item.before, after: item.after });
  });
  out.markdown = build(spans);
  out.appliedIds = items.map((p) => p.item.id).filter((id) => out.appliedIds.includes(id));
  return out;
};
