import { webhookStreamId } from '../../events/webhook/events.ts';
import { decideInTransaction, readStream } from '../../infra/eventStore/eventStore.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import { enqueueTask } from '../../infra/taskQueue/taskQueue.ts';
import { webhookDecider } from '../domain/webhook/decider.ts';
import { webhookOf } from './payload.ts';

/** The task kind of a delivery, leased by the webhooks role's workers. */
export const WEBHOOK = 'webhook';

/**
 * Records the deliveries of finished audits: the WebhookScheduled event (with the exact body)
 * and a leased task, both in the consumer's transaction with its checkpoint, so a replayed batch
 * records nothing twice and a crash loses nothing. The POSTs happen in workers, outside it. A
 * reaction to AuditCompleted and AuditFailed (services/reactions.ts).
 */
export async function recordDeliveries(tx: PoolClient, events: readonly EventEnvelope[]): Promise<void> {
  for (const e of events) {
    const upToOutcome = (await readStream(tx, e.streamId)).filter((x) => x.streamVersion <= e.streamVersion);
    const delivery = webhookOf(upToOutcome);
    if (!delivery) continue;
    await decideInTransaction(tx, {
      decider: webhookDecider,
      streamId: webhookStreamId(delivery.jobId),
      accountId: e.accountId,
      command: { type: 'ScheduleWebhook', data: delivery },
      now: new Date(),
      causationId: e.id,
      correlationId: delivery.jobId,
    });
    await enqueueTask(tx, WEBHOOK, e.accountId, delivery.jobId);
  }
}
