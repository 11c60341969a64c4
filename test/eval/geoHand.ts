import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVAL_DIR, loadTopic } from './corpus.ts';
import { scoreOnly } from './geo.ts';

/**
 * Hand-written GEO variants of the held-out strong articles (issue 24, item 6; format in
 * test/fixtures/eval/geo-hand/README.md). Measured only: the engine is never tuned on them.
 */

export const HAND_DIR = join(EVAL_DIR, 'geo-hand');
export const HAND_VARIANTS = ['stuffing', 'filler', 'quotation', 'statistic', 'citation'] as const;
export type HandVariant = (typeof HAND_VARIANTS)[number];
type Edit = { after: string; text: string } | { append: string; text: string };

/** The variant applied to the Markdown article: each edit beside the one block holding its anchor. */
export const applyEdits = (content: string, edits: Edit[]): string => {
  const blocks = content.split(/\n\s*\n/);
  for (const e of edits) {
    const anchor = 'after' in e ? e.after : e.append;
    const hits = blocks.map((b, i) => (b.includes(anchor) ? i : -1)).filter((i) => i >= 0);
    if (hits.length !== 1) throw new Error(`anchor found ${hits.length} times: ${anchor}`);
    const i = hits[0]!;
    if ('after' in e) blocks.splice(i + 1, 0, e.text);
    else blocks[i] = `${blocks[i]!.trimEnd()} ${e.text}`;
  }
  return blocks.join('\n\n');
};

export interface HandRow {
  id: string;
  deltas: Partial<Record<HandVariant, number>>;
}

export const handRows = (): HandRow[] => {
  if (!existsSync(HAND_DIR)) return [];
  return readdirSync(HAND_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const id = f.replace(/\.json$/, '');
      const topic = loadTopic('heldout', id);
      const variants = JSON.parse(readFileSync(join(HAND_DIR, f), 'utf8')) as Partial<Record<HandVariant, Edit[]>>;
      const article = {
        id,
        language: topic.language,
        keyword: topic.keyword,
        content: topic.strong,
        format: 'markdown' as const,
        serp: topic.serp,
      };
      const base = scoreOnly(article, topic.strong).cqsRaw;
      const deltas: HandRow['deltas'] = {};
      for (const v of HAND_VARIANTS) {
        const edits = variants[v];
        if (!edits) continue;
        const s = scoreOnly(article, applyEdits(topic.strong, edits));
        deltas[v] = Math.round((s.cqsRaw - base) * 100) / 100;
      }
      return { id, deltas };
    });
};
