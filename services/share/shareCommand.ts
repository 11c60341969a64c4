import type { EventEnvelope } from '../../events/envelope.ts';
import { shareStreamId } from '../../events/share/events.ts';
import { decideInTransaction, type EventMeta } from '../../infra/eventStore/eventStore.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import { scheduleTask } from '../../infra/taskQueue/taskQueue.ts';
import { shareDecider, type ShareCommand, type ShareState } from '../domain/share/decider.ts';
import { SHARE_EXPIRY } from './timerKind.ts';

export interface ShareCommandRequest extends EventMeta {
  accountId: string;
  auditId: string;
  command: ShareCommand;
  eventIds?: (index: number, event: { type: string; data: unknown }) => string;
}

/**
 * The one way to decide a share command: the append (the inline read model follows, so the next
 * request and the public page see it at once) and the expiry timer, in the caller's transaction. A
 * link with a date has its timer set to that date (moving it when the date moves); a timer left
 * behind by a removed date or a revocation fires for nothing, the decider says so.
 */
export async function runShareCommand(
  tx: PoolClient,
  req: ShareCommandRequest,
): Promise<{ events: EventEnvelope[]; state: ShareState }> {
  const result = await decideInTransaction(tx, {
    decider: shareDecider,
    streamId: shareStreamId(req.auditId),
    accountId: req.accountId,
    command: req.command,
    now: req.now,
    causationId: req.causationId ?? null,
    correlationId: req.correlationId ?? null,
    eventIds: req.eventIds,
  });
  if (result.events.length) {
    const s = result.state;
    if (s.status === 'Active' && s.expiresAt !== null)
      await scheduleTask(tx, SHARE_EXPIRY, req.accountId, req.auditId, new Date(s.expiresAt));
  }
  return result;
}
