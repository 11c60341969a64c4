import { bulkStreamId } from '../../events/bulk/events.ts';
import { decideInTransaction, loadStream, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { completeTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { bulkDecider, isFinished } from '../domain/bulk/decider.ts';
import { applyClose, runningAudit } from './close.ts';
import { armInactivity, BULK_INACTIVITY } from './tasks.ts';
import { domainEventOf } from '../../events/envelope.ts';

/**
 * The inactivity timeout (spec 3.2), fired by the scheduler role when a batch's timer is due. The
 * bulk decider says whether it still is (progress since moves the timer on; a finished batch never
 * times out), so the event is emitted once however many scheduler processes run.
 */
export const bulkInactivityTimer = (deps: { pool: Pool; inactivitySeconds: number }) => ({
  kind: BULK_INACTIVITY,
  fire: (task: Task) =>
    transact(deps.pool, async (tx) => {
      const bulkId = task.subjectId;
      const now = new Date();
      const meta = { now, causationId: task.taskId, correlationId: bulkId };
      const { state } = await loadStream(tx, bulkDecider, bulkStreamId(bulkId));
      if (state.status === 'None' || isFinished(state)) return completeTask(tx, task);
      const running = await runningAudit(tx, state);
      const { events } = await decideInTransaction(tx, {
        ...meta,
        decider: bulkDecider,
        streamId: bulkStreamId(bulkId),
        accountId: task.accountId,
        command: {
          type: 'TimeOutBulk',
          data: {
            runningCharged: running?.charged ?? false,
            inactivitySeconds: deps.inactivitySeconds,
            at: now.toISOString(),
          },
        },
      });
      const closed = events[0];
      if (!closed) {
        // Progress came since the timer was set: wait again from the last progress.
        return armInactivity(tx, task.accountId, bulkId, state.lastProgressAt!, deps.inactivitySeconds);
      }
      await applyClose(tx, meta, task.accountId, bulkId, state, domainEventOf<never>(closed));
      await completeTask(tx, task);
    }),
});
