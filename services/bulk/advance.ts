import { auditStreamId } from '../../events/audit/events.ts';
import { bulkStreamId } from '../../events/bulk/events.ts';
import { decideInTransaction, loadStream, transact } from '../../infra/eventStore/eventStore.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import type { SerpProvider } from '../../infra/serp/types.ts';
import { completeTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { submitAuditInTransaction } from '../pipeline/submitAudit.ts';
import { auditDecider, isTerminal } from '../domain/audit/decider.ts';
import {
  bulkDecider,
  isFinished,
  nextQueuedIndex,
  runningIndex,
  type BulkCommand,
  type BulkState,
} from '../domain/bulk/decider.ts';
import { armInactivity, bulkIdOfTask } from './tasks.ts';
import { closeOnAccount, refundEntry } from './close.ts';

export interface AdvanceDeps {
  pool: Pool;
  serp: SerpProvider;
  log: Logger;
  inactivitySeconds: number;
}

/** The language of the batch's keyword-data call: a batch has no language field (docs/api-decisions.md). */
const BATCH_LANGUAGE = 'en';

/**
 * Moves a batch on, from wherever its stream stands (so any trigger, repeated or late, is safe):
 * records the running entry if its audit ended (refunding its reserved credit when the pipeline did
 * not charge it, i.e. the page was unreachable or preparation failed), then starts the next queued
 * entry as an ordinary audit with its fetch task. One transaction: a crash repeats the whole step
 * or none of it, so no entry is lost, started twice, or refunded twice.
 */
export const advanceStep =
  (deps: AdvanceDeps) =>
  async (task: Task): Promise<void> => {
    const { pool } = deps;
    const bulkId = bulkIdOfTask(task.subjectId);
    const first = await loadStream(pool, bulkDecider, bulkStreamId(bulkId));
    // Keyword data for the whole batch: one provider call, before the first entry (spec 4.4 rule 4).
    if (first.state.status === 'queued' && !first.state.keywordVolumes) await fetchKeywordData(deps, task, first.state);

    await transact(pool, async (tx) => {
      const now = new Date();
      const at = now.toISOString();
      const meta = { now, causationId: task.taskId, correlationId: bulkId };
      const decide = (command: BulkCommand) =>
        decideInTransaction(tx, {
          ...meta,
          decider: bulkDecider,
          streamId: bulkStreamId(bulkId),
          accountId: task.accountId,
          command,
        });
      let state = (await loadStream(tx, bulkDecider, bulkStreamId(bulkId))).state;
      if (state.status === 'None' || isFinished(state)) return completeTask(tx, task);

      const running = runningIndex(state);
      if (running !== null) {
        const entry = state.entries[running]!;
        const audit = await loadStream(tx, auditDecider, auditStreamId(entry.auditId));
        // Still running: its end (finishAudit) asks for the next advance.
        if (!isTerminal(audit.state)) return completeTask(tx, task);
        const completed = audit.state.status === 'completed';
        const last = audit.events[audit.events.length - 1]!;
        const payload = last.payload as { cqs?: number | null; errorCode?: string; errorMessage?: string };
        if (state.creditsReserved > 0 && !audit.state.charged) {
          await refundEntry(
            tx,
            meta,
            task.accountId,
            entry.auditId,
            `bulk entry not charged: ${audit.state.status === 'error' ? audit.state.errorCode : 'ended before its charge'}`,
          );
        }
        const result = await decide({
          type: 'FinishEntry',
          data: {
            index: running,
            status: completed ? 'completed' : 'error',
            cqs: completed ? (payload.cqs ?? null) : null,
            error: completed ? null : `${payload.errorCode}: ${payload.errorMessage}`,
            charged: audit.state.charged && state.creditsReserved > 0,
            at,
          },
        });
        state = result.state;
        if (state.status === 'completed') await closeOnAccount(tx, meta, task.accountId, bulkId);
      }
      if (!isFinished(state) && runningIndex(state) === null) {
        const next = nextQueuedIndex(state);
        if (next !== null) state = await startEntry(tx, task, state, next, at);
      }
      if (!isFinished(state))
        await armInactivity(tx, task.accountId, bulkId, state.lastProgressAt!, deps.inactivitySeconds);
      await completeTask(tx, task);
    });
  };

async function startEntry(tx: PoolClient, task: Task, state: BulkState, index: number, at: string): Promise<BulkState> {
  const entry = state.entries[index]!;
  const bulkId = state.bulkId!;
  const { state: next } = await decideInTransaction(tx, {
    now: new Date(at),
    causationId: task.taskId,
    correlationId: bulkId,
    decider: bulkDecider,
    streamId: bulkStreamId(bulkId),
    accountId: task.accountId,
    command: { type: 'StartEntry', data: { index, at } },
  });
  await submitAuditInTransaction(tx, {
    accountId: task.accountId,
    source: 'api',
    idempotencyKey: null,
    bulkId,
    now: new Date(at),
    correlationId: bulkId,
    ids: { jobId: entry.jobId, auditId: entry.auditId },
    request: {
      url: entry.url,
      content: null,
      title: null,
      keyword: entry.keyword,
      language: null,
      project: state.project,
      share: false,
      shareExpiresInDays: null,
      webhookUrl: state.webhookUrl,
    },
  });
  // submitAuditInTransaction runs the request's in-step reactions: the fetch task is due when this commits.
  return next;
}

async function fetchKeywordData(deps: AdvanceDeps, task: Task, state: BulkState): Promise<void> {
  const keywords = [...new Set(state.entries.flatMap((e) => (e.keyword ? [e.keyword] : [])))];
  let volumes: { keyword: string; searchVolume: number | null }[] = [];
  if (keywords.length > 0) {
    try {
      const found = await deps.serp.searchVolumes(keywords, BATCH_LANGUAGE);
      volumes = keywords.map((keyword) => ({ keyword, searchVolume: found.get(keyword) ?? null }));
    } catch (e) {
      // An outage costs the batch its keyword figures, not its audits (each audit's SERP lookup stands alone).
      deps.log.warn({ err: e, bulkId: state.bulkId }, 'keyword data for the batch could not be fetched');
      volumes = keywords.map((keyword) => ({ keyword, searchVolume: null }));
    }
  }
  await transact(deps.pool, (tx) =>
    decideInTransaction(tx, {
      now: new Date(),
      causationId: task.taskId,
      correlationId: state.bulkId,
      decider: bulkDecider,
      streamId: bulkStreamId(state.bulkId!),
      accountId: task.accountId,
      command: { type: 'RecordKeywordData', data: { provider: deps.serp.name, volumes, at: new Date().toISOString() } },
    }),
  );
}
