import { accountStreamId } from '../../events/account/index.ts';
import type { BulkEvent } from '../../events/bulk/events.ts';
import { auditStreamId } from '../../events/audit/events.ts';
import { decideInTransaction, loadStream, type EventMeta } from '../../infra/eventStore/eventStore.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import { accountDecider } from '../domain/account/decider.ts';
import { auditDecider, isTerminal, type AuditState } from '../domain/audit/decider.ts';
import type { BulkState } from '../domain/bulk/decider.ts';

/** Whether the entry running now (if any) was already charged by the pipeline: its credit then stays taken. */
export async function runningAudit(
  tx: PoolClient,
  state: BulkState,
): Promise<Exclude<AuditState, { status: 'None' }> | null> {
  const running = state.entries.find((e) => e.status === 'running');
  const audit = running ? (await loadStream(tx, auditDecider, auditStreamId(running.auditId))).state : null;
  return audit?.status === 'None' ? null : audit;
}

/** A refund of an entry's reserved credit; a no-op when it was refunded before or never charged (unlimited). */
export const refundEntry = (tx: PoolClient, meta: EventMeta, accountId: string, auditId: string, reason: string) =>
  decideInTransaction(tx, {
    ...meta,
    decider: accountDecider,
    streamId: accountStreamId(accountId),
    accountId,
    command: { type: 'RefundCharge', data: { kind: 'audit', subjectId: auditId, reason } },
  });

export const closeOnAccount = (tx: PoolClient, meta: EventMeta, accountId: string, bulkId: string) =>
  decideInTransaction(tx, {
    ...meta,
    decider: accountDecider,
    streamId: accountStreamId(accountId),
    accountId,
    command: { type: 'CloseBulk', data: { bulkId } },
  });

/**
 * The consequences of a cancel or a timeout (decided on the bulk stream, `closed`), in the same
 * transaction: skipped entries' credits back, the running audit stopped (job `error`; its credit back
 * unless the pipeline had charged it), and the account free for a new batch.
 */
export async function applyClose(
  tx: PoolClient,
  meta: EventMeta,
  accountId: string,
  bulkId: string,
  before: BulkState,
  closed: BulkEvent,
): Promise<void> {
  if (closed.type !== 'BulkCancelled' && closed.type !== 'BulkTimedOut') return;
  const d = closed.data;
  const why =
    closed.type === 'BulkCancelled'
      ? 'bulk cancelled before the audit started'
      : 'bulk closed after inactivity before the audit started';
  if (before.creditsReserved > 0)
    for (const i of d.skipped) await refundEntry(tx, meta, accountId, before.entries[i]!.auditId, why);
  if (d.stopped !== null) {
    const entry = before.entries[d.stopped]!;
    const audit = (await loadStream(tx, auditDecider, auditStreamId(entry.auditId))).state;
    if (!isTerminal(audit)) {
      const progress = audit.status === 'None' ? null : audit;
      const cancelled = closed.type === 'BulkCancelled';
      await decideInTransaction(tx, {
        ...meta,
        decider: auditDecider,
        streamId: auditStreamId(entry.auditId),
        accountId,
        command: {
          type: 'FailAudit',
          data: {
            errorCode: cancelled ? 'audit_failed' : 'internal_error',
            errorMessage: cancelled
              ? 'The batch was cancelled while this audit ran'
              : 'The batch was closed after inactivity while this audit ran',
            stage: progress?.charged ? 'score' : progress?.contentRef ? 'analyse' : 'fetch',
          },
        },
      });
    }
    if (before.creditsReserved > 0 && !d.stoppedCharged)
      await refundEntry(
        tx,
        meta,
        accountId,
        entry.auditId,
        closed.type === 'BulkCancelled'
          ? 'bulk cancelled while the audit ran, before its charge'
          : 'bulk closed after inactivity while the audit ran, before its charge',
      );
  }
  await closeOnAccount(tx, meta, accountId, bulkId);
}
