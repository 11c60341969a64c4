import type { Config } from '../../infra/config.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import type { Task } from '../../infra/taskQueue/taskQueue.ts';
import { bulkInactivityTimer } from '../bulk/inactivity.ts';
import { fireShareExpiry } from '../share/expiryTimer.ts';
import { SHARE_EXPIRY } from '../share/timerKind.ts';

/**
 * A timed event: tasks of `kind` are set with scheduleTask(db, kind, accountId, subjectId, dueAt)
 * by whoever decides the date; `fire` runs once the date is due, re-reads the stream and lets its
 * decider say whether the event is still due, and completes (or moves) the task in the same
 * transaction as what it appends.
 */
export interface Timer {
  kind: string;
  fire(task: Task): Promise<void>;
}

/** Every timer of the service; the scheduler role runs a worker for each. */
export const timersOf = (config: Config, pool: Pool): Timer[] => [
  { kind: SHARE_EXPIRY, fire: fireShareExpiry(pool) },
  bulkInactivityTimer({ pool, inactivitySeconds: config.bulk.inactivitySeconds }),
];
