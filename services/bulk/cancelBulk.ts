import { bulkStreamId } from '../../events/bulk/events.ts';
import { decideInTransaction, loadStream, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { applyClose, runningAudit } from './close.ts';
import { bulkDecider, type BulkState } from '../domain/bulk/decider.ts';
import { AppError } from '../../core/errors.ts';
import { domainEventOf } from '../../events/envelope.ts';

/** Loads a batch of this account; another account's batch is not found (no hint that it exists). */
export async function loadOwnBulk(db: Parameters<typeof loadStream>[0], accountId: string, bulkId: string) {
  const loaded = await loadStream(db, bulkDecider, bulkStreamId(bulkId));
  if (loaded.state.status === 'None' || loaded.events[0]!.accountId !== accountId)
    throw new AppError('not_found', 'Bulk request not found');
  return loaded;
}

/**
 * POST /audits/bulk/{id}/cancel (spec 4.6): decided on the batch's stream (409 already_finished
 * once it ended), then in the same transaction the skipped entries' credits back, the running audit
 * stopped, and the account free for a new batch.
 */
export async function cancelBulk(
  pool: Pool,
  accountId: string,
  bulkId: string,
  now: Date,
  correlationId: string | null,
): Promise<{ state: BulkState; creditsRefunded: number }> {
  return transact(pool, async (tx) => {
    const { state } = await loadOwnBulk(tx, accountId, bulkId);
    const running = await runningAudit(tx, state);
    const meta = { now, correlationId };
    const { events, state: after } = await decideInTransaction(tx, {
      ...meta,
      decider: bulkDecider,
      streamId: bulkStreamId(bulkId),
      accountId,
      command: { type: 'CancelBulk', data: { runningCharged: running?.charged ?? false, at: now.toISOString() } },
    });
    const closed = events[0]!;
    await applyClose(tx, meta, accountId, bulkId, state, domainEventOf<never>(closed));
    return { state: after, creditsRefunded: (closed.payload as { creditsRefunded: number }).creditsRefunded };
  });
}
