import { getContent } from '../../infra/eventStore/contentStore.ts';
import { transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { completeTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { findAudit } from '../../projections/audits/queries.ts';
import { revisionOf } from '../domain/revision/decider.ts';
import { parseSubject, revisionStepOf } from './generateStep.ts';
import { loadRevisions } from './revisions.ts';
import type { StoredResult } from './revisionView.ts';
import { loadBaseline } from './baseline.ts';
import { measureOnPool } from './engine.ts';

/**
 * The measurement (2.6): the new text re-scored by the engine with the audit's keyword, language
 * and SERP baseline (the benchmark input kept at completion, AuditCompleted v2 benchmarkRef); never
 * a credit. An audit completed before the baseline was kept, with a benchmark in its result, ends
 * `error` rather than being measured against a different SERP.
 */
export const measureStep =
  (pool: Pool) =>
  async (task: Task): Promise<void> => {
    const { auditId, revisionId } = parseSubject(task.subjectId);
    const { state } = await loadRevisions(pool, auditId);
    const r = revisionOf(state, revisionId);
    const row = await findAudit(pool, task.accountId, auditId);
    if (!r || r.measurement !== 'running' || !r.resultRef || !row) return void (await completeTask(pool, task));
    const stored = JSON.parse((await getContent(pool, r.resultRef)) ?? 'null') as StoredResult | null;
    const result = row.result as { benchmark?: unknown; input?: { keyword?: string; language?: string } } | null;
    const baseline = await loadBaseline(pool, auditId);
    let outcome: { status: 'completed' | 'error'; cqsAfter: number | null; error: string | null };
    if (!stored) outcome = { status: 'error', cqsAfter: null, error: 'the generated text is missing' };
    else if (result?.benchmark && !baseline)
      outcome = {
        status: 'error',
        cqsAfter: null,
        error: "the audit's SERP baseline was not kept, so the text cannot be measured against it",
      };
    else {
      try {
        const basis = {
          url: row.url,
          keyword: row.keyword ?? result?.input?.keyword ?? null,
          language: row.language ?? result?.input?.language ?? null,
          benchmark: baseline,
        };
        const cqsAfter = await measureOnPool({ basis, markdown: stored.markdown, title: stored.title });
        outcome = { status: 'completed', cqsAfter, error: null };
      } catch (e) {
        outcome = { status: 'error', cqsAfter: null, error: (e as Error).message };
      }
    }
    await transact(pool, async (tx) => {
      await revisionStepOf(tx, task, auditId, { type: 'RecordMeasurement', data: { revisionId, ...outcome } });
      await completeTask(tx, task);
    });
  };
