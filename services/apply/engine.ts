import { moduleBeside, runOnPool } from '../../infra/workers/cpuPool.ts';
import type { PlannedItem } from './items.ts';
import type { Rewrite } from './rewrite.ts';
import type { ScoreBasis } from './score.ts';
import type { ContextInput, GenerateInput } from './engineWork.ts';

const WORK = moduleBeside(import.meta.url, 'engineWork');

/** Apply's CPU work on a pool thread (engineWork.ts). */
export const contextOnPool = (i: ContextInput) =>
  runOnPool<ContextInput, { markdown: string; items: PlannedItem[] }>(WORK, 'context', i);

export const generateOnPool = (i: GenerateInput) =>
  runOnPool<GenerateInput, { rewrite: Rewrite; previewHtml: string }>(WORK, 'generate', i);

export const measureOnPool = (i: { basis: ScoreBasis; markdown: string; title: string | null }) =>
  runOnPool<typeof i, number | null>(WORK, 'measure', i);
