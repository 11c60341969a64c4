import type { Subscriber, Subscription } from '../../infra/subscriptions/port.ts';
import { enqueueTask } from '../../infra/taskQueue/taskQueue.ts';

export const FETCH = 'fetch';
export const ANALYSE = 'analyse';

/**
 * Turns audit events into work: a requested audit needs its content, fetched content needs its
 * analysis. Tasks are recorded in the consumer's transaction (idempotently), and done by workers
 * outside it, so no slow fetch or scoring ever holds a consumer or a transaction open.
 */
export function startPipelineFeeder(subscriber: Subscriber): Promise<Subscription> {
  return subscriber.subscribe({
    groupId: 'pipeline.tasks',
    types: ['AuditRequested', 'ContentFetched'],
    async handle(events, tx) {
      for (const e of events) {
        const auditId = e.streamId.replace(/^audit-/, '');
        await enqueueTask(tx, e.type === 'AuditRequested' ? FETCH : ANALYSE, e.accountId, auditId);
      }
    },
  });
}
