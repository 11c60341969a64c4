import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVAL_DIR, loadSet, type Half, type Topic } from './corpus.ts';
import { scoreOnly } from './geo.ts';

/**
 * Hand-written GEO variants of strong articles (issue 24, item 6; format in
 * test/fixtures/eval/geo-hand/README.md), one folder per half: `tuning` and `corpus-a` steer the
 * engine, `heldout` and `corpus-b` are measured only.
 */

export const HAND_DIR = join(EVAL_DIR, 'geo-hand');
export const HAND_HALVES: Half[] = [
  'tuning',
  'corpus-a',
  'corpus-c',
  'heldout',
  'corpus-b',
  'corpus-d',
  'corpus-e',
  'corpus-f',
  'corpus-g',
  'corpus-h',
  'corpus-i',
];
/**
 * Sets of variants by different writers: `geo-hand/<half>/` (the first), `geo-hand/<half>-b/` (a
 * second writer's, with other forms: figures and sources without "according to", bold keyword
 * lines, quotations introduced by a colon), `geo-hand/<half>-c/` (stop 44: the exact keyword
 * appended to the end of 11 paragraphs, uninflected, on the long and local keywords), so that a
 * rule fitted to one writer's forms shows.
 */
export const HAND_SETS = ['', '-b', '-c'] as const;
export type HandSet = (typeof HAND_SETS)[number];
export const HAND_VARIANTS = ['stuffing', 'filler', 'quotation', 'statistic', 'citation'] as const;
export const HAND_GAMING: readonly HandVariant[] = ['stuffing', 'filler'];
export type HandVariant = (typeof HAND_VARIANTS)[number];
export type Edit = { after: string; text: string } | { append: string; text: string };

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

export interface HandFile {
  topic: Topic;
  variants: Partial<Record<HandVariant, Edit[]>>;
}

/** The variant files of one half with their topics, in file order. */
export const handFiles = (half: Half, set: HandSet = ''): HandFile[] => {
  const dir = join(HAND_DIR, `${half}${set}`);
  if (!existsSync(dir)) return [];
  const topics = new Map(loadSet(half).map((t) => [t.id, t]));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const topic = topics.get(f.replace(/\.json$/, ''));
      if (!topic) throw new Error(`geo-hand/${half}${set}/${f}: no such topic`);
      return { topic, variants: JSON.parse(readFileSync(join(dir, f), 'utf8')) as HandFile['variants'] };
    });
};

export interface HandRow {
  id: string;
  language: string;
  deltas: Partial<Record<HandVariant, number>>;
  /** Per variant, the dimensions it moved ("tfidf+0.4 eeat-0.2"), for diagnosis. */
  moved: Partial<Record<HandVariant, string>>;
}

export const handRows = (half: Half, set: HandSet = ''): HandRow[] =>
  handFiles(half, set).map(({ topic, variants }) => {
    const article = {
      id: topic.id,
      language: topic.language,
      keyword: topic.keyword,
      content: topic.strong,
      format: 'markdown' as const,
      serp: topic.serp,
    };
    const base = scoreOnly(article, topic.strong);
    const row: HandRow = { id: topic.id, language: topic.language, deltas: {}, moved: {} };
    for (const v of HAND_VARIANTS) {
      const edits = variants[v];
      if (!edits) continue;
      const s = scoreOnly(article, applyEdits(topic.strong, edits));
      row.deltas[v] = Math.round((s.cqsRaw - base.cqsRaw) * 100) / 100;
      const moved = s.outcomes
        .map((o, i) => [o.id, Math.round((o.score - base.outcomes[i]!.score) * 100) / 100] as const)
        .filter(([, d]) => d !== 0)
        .map(([id, d]) => `${id}${d > 0 ? '+' : ''}${d}`);
      const e = Math.round((s.eeat.average - base.eeat.average) * 100) / 100;
      if (e) moved.push(`eeat${e > 0 ? '+' : ''}${e}`);
      row.moved[v] = moved.join(' ');
    }
    return row;
  });
