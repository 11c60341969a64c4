import { accountStreamId } from '../../events/account/index.ts';
import type { DomainEvent } from '../../core/decider.ts';
import { deterministicId } from '../../core/ids.ts';
import { revisionStreamId } from '../../events/revision/events.ts';
import { putContent } from '../../infra/eventStore/contentStore.ts';
import { decideInTransaction, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import { completeTask, enqueueTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { findAudit } from '../../projections/audits/queries.ts';
import { accountDecider } from '../domain/account/decider.ts';
import { revisionDecider, revisionOf, type RevisionCommand, type RevisionEntry } from '../domain/revision/decider.ts';
import { contextOf } from './auditContext.ts';
import { loadRevisions } from './revisions.ts';
import { loadBaseline } from './baseline.ts';
import { generateOnPool } from './engine.ts';
import { writeItems } from './writer.ts';
import { WriterError } from '../../infra/llm/chatClient.ts';
import type { LlmSettings } from '../../infra/llm/settings.ts';
import type { StoredResult } from './revisionView.ts';

export const MEASURE = 'apply-measure';

export const parseSubject = (subjectId: string): { auditId: string; revisionId: string } => {
  const [auditId = '', revisionId = ''] = subjectId.split('/');
  return { auditId, revisionId };
};

/** Event ids derived from the task and the event: a repeated step reproduces them and the store refuses the copy. */
const metaOf = (task: Task) => ({
  now: new Date(),
  causationId: task.taskId,
  correlationId: task.subjectId,
  eventIds: (_i: number, e: DomainEvent) => deterministicId(task.taskId, e.type, JSON.stringify(e.data)),
});

const revisionStep = (tx: PoolClient, task: Task, auditId: string, command: RevisionCommand) =>
  decideInTransaction(tx, {
    ...metaOf(task),
    decider: revisionDecider,
    streamId: revisionStreamId(auditId),
    accountId: task.accountId,
    command,
  });

const release = (tx: PoolClient, task: Task, revisionId: string) =>
  decideInTransaction(tx, {
    ...metaOf(task),
    decider: accountDecider,
    streamId: accountStreamId(task.accountId),
    accountId: task.accountId,
    command: { type: 'ReleaseGeneration', data: { revisionId } },
  });

/**
 * Ends a generation as failed (3.4): the error, the credit given back as a ledger entry on the
 * account stream, the place among the three in flight released, the task done — one transaction.
 */
export async function failGeneration(pool: Pool, task: Task, error: string): Promise<void> {
  const { auditId, revisionId } = parseSubject(task.subjectId);
  await transact(pool, async (tx) => {
    const { state } = await loadRevisions(tx, auditId);
    const r = revisionOf(state, revisionId);
    if (r && r.status === 'generating')
      await revisionStep(tx, task, auditId, { type: 'FailGeneration', data: { revisionId, error } });
    if (r && (r.status === 'generating' || (r.status === 'failed' && !r.refunded))) {
      let credits = 0;
      if (r.chargeId) {
        const { events } = await decideInTransaction(tx, {
          ...metaOf(task),
          decider: accountDecider,
          streamId: accountStreamId(task.accountId),
          accountId: task.accountId,
          command: {
            type: 'RefundCharge',
            data: { kind: 'apply', subjectId: revisionId, reason: `apply generation failed: ${error}`.slice(0, 500) },
          },
        });
        credits = (events[0]?.payload as { credits?: number } | undefined)?.credits ?? 0;
      }
      await revisionStep(tx, task, auditId, { type: 'RecordRefund', data: { revisionId, credits } });
    }
    await release(tx, task, revisionId);
    await completeTask(tx, task);
  });
}

/**
 * One generation (3.4): the deterministic rewrite of the audited content with the revision's
 * selection, the preview, and the outcome. Nothing applied ends `failed` (refunded). Success stores
 * the result, releases the slot and queues the measurement. Idempotent: a worker killed anywhere is
 * followed by another that finds the stream where it stands.
 */
export const generateStep =
  (pool: Pool, llm: LlmSettings | null = null) =>
  async (task: Task): Promise<void> => {
    const { auditId, revisionId } = parseSubject(task.subjectId);
    const { state } = await loadRevisions(pool, auditId);
    const r = revisionOf(state, revisionId);
    if (!r || r.status !== 'generating') {
      if (r?.status === 'failed' && !r.refunded) return failGeneration(pool, task, r.error ?? 'failed');
      return transact(pool, async (tx) => {
        await release(tx, task, revisionId);
        await completeTask(tx, task);
      });
    }
    const row = await findAudit(pool, task.accountId, auditId);
    if (!row || row.status !== 'completed') return failGeneration(pool, task, 'The audit is no longer available');
    const ctx = await contextOf(pool, row, llm !== null);
    // The guard scores against what the measurement will: the audit's keyword, language and kept
    // SERP baseline. An audit with a benchmark but none kept (completed before it was kept) is
    // rewritten without the guard; its measurement says why it cannot be measured.
    const baseline = await loadBaseline(pool, auditId);
    const guarded = baseline !== null || !ctx.result.benchmark;
    const basis = guarded ? { url: row.url, keyword: ctx.keyword, language: ctx.language, benchmark: baseline } : null;
    let items = ctx.items;
    if (llm) {
      try {
        items = await writeItems(llm, ctx.items, r.selectedIds, {
          markdown: ctx.markdown,
          keyword: ctx.keyword,
          language: ctx.language,
        });
      } catch (e) {
        if (e instanceof WriterError) return failGeneration(pool, task, `${e.message}; the credit was refunded`);
        throw e;
      }
    }
    const { rewrite: rw, previewHtml } = await generateOnPool({
      markdown: ctx.markdown,
      items,
      selectedIds: r.selectedIds,
      basis,
      language: ctx.language,
    });
    if (rw.appliedIds.length === 0) {
      const reasons = [...new Set(rw.skipped.map((s) => s.message))].join('; ');
      return failGeneration(
        pool,
        task,
        `Nothing could be applied (${reasons || 'no change'}); the credit was refunded`,
      );
    }
    const stored: StoredResult = {
      markdown: rw.markdown,
      title: rw.title,
      description: rw.description,
      appliedIds: rw.appliedIds,
      skipped: rw.skipped.map((s) => ({ id: s.id, reason: s.reason, message: s.message })) as StoredResult['skipped'],
      previewHtml,
      recIds: 'result',
    };
    await complete(pool, task, auditId, r, stored, row.cqs);
  };

async function complete(
  pool: Pool,
  task: Task,
  auditId: string,
  r: RevisionEntry,
  stored: StoredResult,
  cqsBefore: number | null,
): Promise<void> {
  await transact(pool, async (tx) => {
    const resultRef = await putContent(tx, JSON.stringify(stored));
    await revisionStep(tx, task, auditId, {
      type: 'CompleteGeneration',
      data: { revisionId: r.revisionId, resultRef, appliedCount: stored.appliedIds.length, cqsBefore },
    });
    await release(tx, task, r.revisionId);
    await enqueueTask(tx, MEASURE, task.accountId, task.subjectId);
    await completeTask(tx, task);
  });
}

export { revisionStep as revisionStepOf, metaOf as applyMetaOf };
