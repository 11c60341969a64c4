import { workerTask } from '../../infra/workers/workerTask.ts';
import { planItems, type ItemsInput, type PlannedItem } from './items.ts';
import { renderPreview } from './preview.ts';
import { rewrite, type Rewrite } from './rewrite.ts';
import { guardScore, scoreMarkdown, type ScoreBasis } from './score.ts';
import { toMarkdown } from './sourceMarkdown.ts';

/**
 * Apply's CPU work, run on the pool's threads (infra/workers/cpuPool.ts): the source article as
 * Markdown with its items (a fetched page goes through Readability and turndown), the guarded
 * rewrite (one engine run per candidate item) with its preview, and the measurement.
 */

export interface ContextInput extends Omit<ItemsInput, 'markdown' | 'title'> {
  content: string;
  format: 'html' | 'text' | null;
  /** The supplied title; otherwise the Markdown's first H1. */
  title: string | null;
}

export const context = workerTask((i: ContextInput): { markdown: string; items: PlannedItem[] } => {
  const markdown = toMarkdown(i.content, i.format);
  const title = i.title ?? /^#\s+(.+)$/m.exec(markdown)?.[1] ?? null;
  const { content: _content, format: _format, ...rest } = i;
  return { markdown, items: planItems({ ...rest, markdown, title }) };
});

export interface GenerateInput {
  markdown: string;
  items: readonly PlannedItem[];
  selectedIds: readonly string[];
  /** The guard's scoring basis; null: rewritten without the guard. */
  basis: ScoreBasis | null;
  language: string;
}

export const generate = workerTask((i: GenerateInput): { rewrite: Rewrite; previewHtml: string } => {
  const rw = rewrite(i.markdown, i.items, i.selectedIds, i.basis ? guardScore(i.basis) : undefined);
  return { rewrite: rw, previewHtml: renderPreview(i.markdown, rw, i.language) };
});

export const measure = workerTask((i: { basis: ScoreBasis; markdown: string; title: string | null }) =>
  scoreMarkdown(i.basis)(i.markdown, i.title),
);
