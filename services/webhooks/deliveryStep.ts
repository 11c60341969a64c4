import type { EventEnvelope } from '../../events/envelope.ts';
import { webhookStreamId } from '../../events/webhook/events.ts';
import { decideInTransaction, loadStream, transact } from '../../infra/eventStore/eventStore.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { completeTask, extendLease, LeaseLostError, releaseTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { isFinished, nextAttempt, webhookDecider, type WebhookCommand } from '../domain/webhook/decider.ts';
import { sendOnce, type SendOptions } from './send.ts';
import { webhookSecretOf } from '../../infra/secrets/webhookSecrets.ts';
import { sleep } from '../../core/sleep.ts';

export interface DeliveryDeps extends SendOptions {
  pool: Pool;
  log: Logger;
  /** The task lease, renewed right before each POST. */
  leaseSeconds: number;
  /** True once the process is shutting down: deliveries are handed over between attempts. */
  stopping?: () => boolean;
}

/** Records a decision on the delivery stream; the task ends in the same transaction as the delivery. */
async function record(deps: DeliveryDeps, task: Task, command: WebhookCommand): Promise<void> {
  await transact(deps.pool, async (tx) => {
    const { state } = await decideInTransaction(tx, {
      decider: webhookDecider,
      streamId: webhookStreamId(task.subjectId),
      accountId: task.accountId,
      command,
      now: new Date(),
      causationId: task.taskId,
      correlationId: task.subjectId,
    });
    if (isFinished(state)) await completeTask(tx, task);
  });
}

const lastAttemptAt = (events: readonly EventEnvelope[]): Date | null => {
  const last = events.findLast((e) => e.type === 'WebhookAttempted');
  return last ? new Date(last.occurredAt) : null;
};

/**
 * Works one job's webhook to its end within one claim: before every POST it reads the delivery
 * stream again (a recorded 2xx, or another worker's attempt, stops it), waits out the pause, sends,
 * and records the attempt at once. A worker that dies leaves its lease to run out; the next one
 * reads the recorded attempts and carries on from there with the same X-Service-Delivery.
 */
export const deliveryStep =
  (deps: DeliveryDeps) =>
  async (task: Task): Promise<void> => {
    for (;;) {
      const { state, events } = await loadStream(deps.pool, webhookDecider, webhookStreamId(task.subjectId));
      const next = nextAttempt(state, lastAttemptAt(events));
      if (state.status === 'None' || !next) {
        await completeTask(deps.pool, task);
        return;
      }
      const wait = next.notBefore ? next.notBefore.getTime() - Date.now() : 0;
      if (deps.stopping?.()) {
        // A graceful stop does not sit through pauses: the task becomes claimable when the next
        // attempt is due, by any process, instead of when this one's lease would have run out.
        await releaseTask(deps.pool, task, 'handed over: its worker was stopping', Math.max(0, wait) / 1000);
        return;
      }
      if (wait > 0) {
        // Short naps, reading the stream again after each: the pause ends on time, and nothing
        // recorded meanwhile is missed.
        await sleep(Math.min(wait, 1_000));
        continue;
      }
      const secret = await webhookSecretOf(deps.pool, task.accountId);
      if (!secret) {
        // Never send unsigned: a receiver could not tell it from a forgery.
        await record(deps, task, { type: 'AbandonWebhook', data: { reason: 'no_signing_secret' } });
        return;
      }
      // A POST cannot be rolled back: renew the lease first, and send only while this claim is the
      // latest (a worker paused past its lease, then woken, must not send the attempt again).
      if (!(await extendLease(deps.pool, task, deps.leaseSeconds))) throw new LeaseLostError(task);
      const d = state.delivery;
      const result = await sendOnce({ url: d.url, event: d.event, deliveryId: d.jobId, body: d.body, secret }, deps);
      deps.log.info({ jobId: d.jobId, attempt: next.attempt, ...result }, 'webhook attempt');
      await record(deps, task, { type: 'RecordAttempt', data: { attempt: next.attempt, ...result } });
    }
  };

/** A task whose worker kept dying (claimed too often): the delivery is given up, visibly. */
export const abandonExhausted =
  (deps: Pick<DeliveryDeps, 'pool' | 'log'>) =>
  async (task: Task, lastError: string): Promise<void> => {
    deps.log.error({ jobId: task.subjectId, lastError }, 'webhook delivery given up: its worker kept failing');
    await transact(deps.pool, async (tx) => {
      const { state } = await loadStream(tx, webhookDecider, webhookStreamId(task.subjectId));
      if (state.status === 'Scheduled') {
        await decideInTransaction(tx, {
          decider: webhookDecider,
          streamId: webhookStreamId(task.subjectId),
          accountId: task.accountId,
          command: { type: 'AbandonWebhook', data: { reason: 'worker_failed' } },
          now: new Date(),
          causationId: task.taskId,
          correlationId: task.subjectId,
        });
      }
      await completeTask(tx, task);
    });
  };
