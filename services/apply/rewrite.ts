import type { PlannedItem } from './items.ts';

export type SkipReason = 'not_found' | 'overlapping' | 'not_selectable';

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
};

interface Span { id: string; start: number; end: number; text: string; order: number }

/**
 * The deterministic rewrite (spec 2.6 result): each selected item's BEFORE → AFTER where its BEFORE
 * is found verbatim in the Markdown, additions at their anchor, meta items into title/description.
 * Items are placed on the original text first, so no item depends on another's output; two items
 * touching the same characters keep the first in item order and skip the other ("overlapping").
 */
export const rewrite = (markdown: string, items: readonly PlannedItem[], selectedIds: readonly string[]): Rewrite => {
  const selected = new Set(selectedIds);
  const out: Rewrite = { markdown, title: null, description: null, appliedIds: [], skipped: [], applied: [] };
  const skip = (id: string, reason: SkipReason) => out.skipped.push({ id, reason, message: MESSAGES[reason] });
  const spans: Span[] = [];
  items.forEach(({ item, edit }, order) => {
    if (!selected.has(item.id)) return;
    if (!item.selectable || !edit) return skip(item.id, 'not_selectable');
    if (edit.kind === 'meta') {
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
    const clash = spans.some((s) => (start < s.end && s.start < end) || (start === end && s.start === s.end && s.start === start) || (start === end && start > s.start && start < s.end) || (s.start === s.end && s.start > start && s.start < end));
    if (clash) return skip(item.id, 'overlapping');
    spans.push({ id: item.id, start, end, text, order });
    out.appliedIds.push(item.id);
    out.applied.push({ id: item.id, label: item.label, before: item.before, after: item.after });
  });
  let md = markdown;
  for (const s of [...spans].sort((a, b) => b.start - a.start || b.order - a.order)) md = md.slice(0, s.start) + s.text + md.slice(s.end);
  out.markdown = md;
  out.appliedIds = items.map((p) => p.item.id).filter((id) => out.appliedIds.includes(id));
  return out;
};
