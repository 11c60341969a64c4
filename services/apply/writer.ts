import sanitizeHtml from 'sanitize-html';
import { chatCompletion, WriterError } from '../../infra/llm/chatClient.ts';
import type { LlmSettings } from '../../infra/llm/settings.ts';
import type { PlannedItem } from './items.ts';
import { needsAuthorData } from './placeholders.ts';

const CONTEXT_CHARS = 6000;

/**
 * The writer port (issue 13 point 7): for each selected item whose AFTER the model writes, one
 * chat completion fills its gaps. The answer is sanitised (no markup survives: the rewrite is
 * Markdown) and must leave no gap; then the item is placed, diffed and re-measured like any other.
 * A model that times out or answers garbage throws WriterError: the generation fails and is refunded.
 */
export async function writeItems(
  s: LlmSettings,
  items: readonly PlannedItem[],
  selectedIds: readonly string[],
  article: { markdown: string; keyword: string; language: string },
): Promise<PlannedItem[]> {
  const selected = new Set(selectedIds);
  const out: PlannedItem[] = [];
  for (const p of items) {
    if (
      !p.write ||
      !p.edit ||
      p.edit.kind === 'meta' ||
      p.edit.kind === 'move' ||
      p.edit.kind === 'cut' ||
      !selected.has(p.item.id)
    ) {
      out.push(p);
      continue;
    }
    const answer = await chatCompletion(s, [
      {
        role: 'system',
        content: `You complete a Markdown snippet for a web article written in the language "${article.language}". Replace every bracketed gap such as [fill in: ...] with text in that language that does what the gap asks. Use only general, widely known facts; never invent first-hand experience, prices, statistics, quotes or sources. Keep the snippet's headings. Answer with the completed Markdown snippet only.`,
      },
      {
        role: 'user',
        content: `Keyword: ${article.keyword}\n\nThe article (for context):\n${article.markdown.slice(0, CONTEXT_CHARS)}\n\nThe snippet to complete:\n${p.edit.after}`,
      },
    ]);
    const text = clean(answer);
    if (text === '') throw new WriterError('the writer model answered only markup');
    if (needsAuthorData(text)) throw new WriterError('the writer model left gaps to fill in its answer');
    out.push({ ...p, item: { ...p.item, after: text }, edit: { ...p.edit, after: text } });
  }
  return out;
}

/** Text only: markup (a script, an iframe, any tag) is dropped, a code fence around the answer unwrapped. */
const clean = (answer: string): string => {
  const unfenced = answer.trim().replace(/^```(?:markdown|md)?\n([\s\S]*?)\n```$/u, '$1');
  return sanitizeHtml(unfenced, { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' })
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
};
