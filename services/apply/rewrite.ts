import { MAX_CONTENT_CHARS } from '../engine/audit.ts';
import type { Edit, PlannedItem } from './items.ts';
import type { Span as Placed } from './move.ts';
import { fitSpans, showBreaks, spansOf } from './placement.ts';

export type SkipReason = 'not_found' | 'overlapping' | 'not_selectable' | 'lowers_score' | 'too_large';

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
  too_large: `with it the article would be over the ${MAX_CONTENT_CHARS.toLocaleString('en')}-character content limit, so it could not be measured`,
};

/** The content limit holds for a revision too: the measurement scores it like a submitted text. */
const fits = (text: string): boolean => text.length <= MAX_CONTENT_CHARS;

/** Scores a candidate text (the engine with the audit's keyword, language and SERP baseline). */
export type Scorer = (markdown: string, title: string | null) => number | null;

interface Span extends Placed {
  id: string;
  order: number;
}

/** A selected item ready to be tried: its place on the original text, or its meta field. */
interface Candidate {
  p: PlannedItem;
  order: number;
  spans: Span[];
  meta: Extract<Edit, { kind: 'meta' }> | null;
  /** What the item alone adds to the score (0 without a scorer). */
  gain: number;
}

/** The original with the spans applied, from the end backwards. */
const buildWith = (markdown: string, list: readonly Span[]): string => {
  let md = markdown;
  // At one position a replacement goes before an insertion there, so the insertion lands in front
  // of the replaced text instead of being overwritten by it.
  for (const s of [...list].sort((a, b) => b.start - a.start || b.end - a.end || b.order - a.order))
    md = md.slice(0, s.start) + s.text + md.slice(s.end);
  return md;
};

/**
 * The deterministic rewrite (spec 2.6 result): each selected item's BEFORE → AFTER where its BEFORE
 * is found verbatim in the Markdown, additions at their anchor, meta items into title/description.
 * Items are placed on the original text (placement.ts), so no item depends on another's output;
 * two items changing the same characters cannot both go in ("overlapping").
 *
 * With a scorer, every item is first scored alone, then tried in the order of that gain (item order
 * on a tie): where two chosen items change the same words, the one that does more for the text
 * goes in. An item is kept only if the text with it (and the items kept before it) scores at least
 * as well as without it: an edit that does not fit where it lands is skipped (`lowers_score`)
 * instead of making the article worse. Each item costs two engine runs.
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
  const base = score ? (score(markdown, null) ?? 0) : 0;
  const candidates: Candidate[] = [];
  items.forEach((p, order) => {
    const { item, edit } = p;
    if (!selected.has(item.id)) return;
    if (!item.selectable || !edit) return skip(item.id, 'not_selectable');
    if (edit.kind === 'meta') return void candidates.push({ p, order, spans: [], meta: edit, gain: 0 });
    const placed = spansOf(markdown, edit);
    if (!placed) return skip(item.id, 'not_found');
    candidates.push({ p, order, spans: placed.map((s) => ({ ...s, id: item.id, order })), meta: null, gain: 0 });
  });
  if (score)
    for (const c of candidates) {
      const text = c.meta ? markdown : buildWith(markdown, c.spans);
      const alone = !fits(text) ? null : score(text, c.meta?.field === 'title' ? c.meta.value : null);
      c.gain = (alone ?? 0) - base;
    }
  let spans: Span[] = [];
  let best = base;
  /** Keeps the change if it does not lower the score; `text` and `title` are the article with it. */
  const keeps = (text: string, title: string | null): boolean => {
    if (!score) return true;
    const s = score(text, title) ?? 0;
    if (s < best) return false;
    best = s;
    return true;
  };
  const applied = (c: Candidate, after: string) => {
    out.appliedIds.push(c.p.item.id);
    out.applied.push({ id: c.p.item.id, label: c.p.item.label, before: c.p.item.before, after });
  };
  for (const c of [...candidates].sort((a, b) => b.gain - a.gain || a.order - b.order)) {
    const { item } = c.p;
    if (c.meta) {
      if (c.meta.field === 'title' && !keeps(buildWith(markdown, spans), c.meta.value)) skip(item.id, 'lowers_score');
      else {
        out[c.meta.field] = c.meta.value;
        applied(c, c.meta.value);
      }
      continue;
    }
    const fitted = fitSpans(markdown, spans, c.spans);
    if (!fitted) skip(item.id, 'overlapping');
    else if (!fits(buildWith(markdown, fitted))) skip(item.id, 'too_large');
    else if (!keeps(buildWith(markdown, fitted), out.title)) skip(item.id, 'lowers_score');
    else {
      spans = fitted;
      applied(c, item.after);
    }
  }
  out.markdown = buildWith(markdown, spans);
  out.changes = showBreaks(
    markdown,
    [...spans].sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order),
  ).map(({ id, start, end, text }) => ({ id, start, end, text }));
  const rank = (id: string) => items.findIndex((p) => p.item.id === id);
  out.appliedIds.sort((a, b) => rank(a) - rank(b));
  out.applied.sort((a, b) => rank(a.id) - rank(b.id));
  out.skipped.sort((a, b) => rank(a.id) - rank(b.id));
  return out;
};
