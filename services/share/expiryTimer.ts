import { transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { completeTask, scheduleTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { runShareCommand } from './shareCommand.ts';
import { SHARE_EXPIRY } from './timerKind.ts';

/**
 * Fires a share's expiry timer: the decider, on the stream as it stands, says whether the link is
 * still active and past its date (spec 3.3 row 4). Two schedulers holding the same timer (a lease
 * that ran out) append at most one ShareExpired: the second finds the link expired and records
 * nothing. A link whose date is still ahead (moved meanwhile, or this clock a little behind the
 * database's) gets its timer set again for that date rather than dropped.
 */
export const fireShareExpiry =
  (pool: Pool) =>
  async (task: Task): Promise<void> => {
    await transact(pool, async (tx) => {
      const { state } = await runShareCommand(tx, {
        accountId: task.accountId,
        auditId: task.subjectId,
        command: { type: 'ExpireShare', data: { auditId: task.subjectId, now: new Date() } },
        now: new Date(),
        causationId: task.taskId,
        correlationId: task.subjectId,
      });
      if (state.status === 'Active' && state.expiresAt !== null)
        await scheduleTask(tx, SHARE_EXPIRY, task.accountId, task.subjectId, new Date(state.expiresAt));
      else await completeTask(tx, task);
    });
  };
