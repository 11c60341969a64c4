import { digestId, randomHex } from '../../core/ids.ts';
import { accountStreamId } from '../../events/account/index.ts';
import { bulkStreamId } from '../../events/bulk/events.ts';
import { decideInTransaction, loadStream, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { accountDecider } from '../domain/account/decider.ts';
import { bulkDecider, type BulkState } from '../domain/bulk/decider.ts';
import { armInactivity, requestAdvance } from './tasks.ts';
import type { BulkInput } from './parseBulk.ts';
import { AppError, isAppError } from '../../core/errors.ts';

export interface SubmitBulkCommand {
  accountId: string;
  input: BulkInput;
  idempotencyKey: string | null;
  inactivitySeconds: number;
  now: Date;
  correlationId: string | null;
}

/** With an Idempotency-Key the batch id comes from (account, key): a retry lands on the same batch. */
const bulkIdFor = (accountId: string, key: string | null) =>
  `bulk_${key ? digestId('bulk', accountId, key) : randomHex(12)}`;

/** Each entry's job and audit ids are fixed at submission, so the credit reserved for it names its audit. */
export const entryIds = (bulkId: string, index: number) => {
  const jobId = `job_${digestId('bulk-entry', bulkId, String(index))}`;
  return { jobId, auditId: `aud_${digestId('audit', jobId)}` };
};

/**
 * Accepts a batch, in one transaction: on the account stream, the one-batch-at-a-time rule (409)
 * and the reservation of one credit per entry (402 when the balance cannot cover them: nothing is
 * fetched); the batch's stream; the bulk role's first task and the inactivity timer.
 * `replay` when an Idempotency-Key named a batch that already existed (the first request binds).
 */
export async function submitBulk(pool: Pool, cmd: SubmitBulkCommand): Promise<{ state: BulkState; replay: boolean }> {
  const bulkId = bulkIdFor(cmd.accountId, cmd.idempotencyKey);
  return transact(pool, async (tx) => {
    const existing = await loadStream(tx, bulkDecider, bulkStreamId(bulkId));
    if (existing.state.status !== 'None') return { state: existing.state, replay: true };
    const meta = { now: cmd.now, correlationId: cmd.correlationId };
    const entries = cmd.input.entries.map((e, i) => ({ ...e, ...entryIds(bulkId, i) }));
    let reservation;
    try {
      reservation = await decideInTransaction(tx, {
        ...meta,
        decider: accountDecider,
        streamId: accountStreamId(cmd.accountId),
        accountId: cmd.accountId,
        command: { type: 'OpenBulk', data: { bulkId, entries, project: cmd.input.project } },
      });
    } catch (e) {
      if (isAppError(e) && e.code === 'bulk_in_progress') {
        const blockingBulkId = String(e.extra.blockingBulkId);
        const blocking = await loadStream(tx, bulkDecider, bulkStreamId(blockingBulkId));
        throw new AppError('bulk_in_progress', e.message, { blockingBulkId, blockingStatus: blocking.state.status });
      }
      throw e;
    }
    const creditsReserved = reservation.events.filter((e) => e.type === 'CreditCharged').length;
    const at = cmd.now.toISOString();
    const { state } = await decideInTransaction(tx, {
      ...meta,
      decider: bulkDecider,
      streamId: bulkStreamId(bulkId),
      accountId: cmd.accountId,
      command: {
        type: 'SubmitBulk',
        data: {
          bulkId,
          project: cmd.input.project,
          webhookUrl: cmd.input.webhookUrl,
          idempotencyKey: cmd.idempotencyKey,
          creditsReserved,
          entries: entries.map((e) => ({ url: e.url, keyword: e.keyword, auditId: e.auditId, jobId: e.jobId })),
          at,
        },
      },
    });
    await requestAdvance(tx, cmd.accountId, bulkId, 'submitted');
    await armInactivity(tx, cmd.accountId, bulkId, at, cmd.inactivitySeconds);
    return { state, replay: false };
  });
}
