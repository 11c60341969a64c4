import { createHash } from 'node:crypto';
import { moduleBeside, runOnPool } from '../../infra/workers/cpuPool.ts';
import type { PlannedItem } from './items.ts';
import type { Rewrite } from './rewrite.ts';
import type { ScoreBasis } from './score.ts';
import type { ContextInput, GenerateInput } from './engineWork.ts';

const WORK = moduleBeside(import.meta.url, 'engineWork');

type Context = { markdown: string; items: PlannedItem[] };

/**
 * The last contexts made, by their whole input: POST apply makes one to check the selection, and
 * the generation that follows, in the same process, needs the same (the page's Markdown through
 * Readability and turndown, the items): made once. A pure function of its input, so an entry
 * serves only a caller that brings the same content, whatever its account; each caller gets a copy.
 */
const contexts = new Map<string, Promise<Context>>();
const KEPT = 8;

/** Apply's CPU work on a pool thread (engineWork.ts). */
export async function contextOnPool(i: ContextInput): Promise<Context> {
  const key = createHash('sha256').update(JSON.stringify(i)).digest('base64');
  let made = contexts.get(key);
  if (!made) {
    made = runOnPool<ContextInput, Context>(WORK, 'context', i);
    contexts.set(key, made);
    if (contexts.size > KEPT) contexts.delete(contexts.keys().next().value!);
    made.catch(() => contexts.delete(key));
  }
  return structuredClone(await made);
}

export const generateOnPool = (i: GenerateInput) =>
  runOnPool<GenerateInput, { rewrite: Rewrite; previewHtml: string }>(WORK, 'generate', i);

export const measureOnPool = (i: { basis: ScoreBasis; markdown: string; title: string | null }) =>
  runOnPool<typeof i, number | null>(WORK, 'measure', i);
