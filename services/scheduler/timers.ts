import type { Config } from '../../infra/config.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import type { Task } from '../../infra/taskQueue/taskQueue.ts';
import { bulkInactivityTimer } from '../bulk/inactivity.ts';

/** A kind of timed event: tasks of `kind` (infra/taskQueue scheduleTask) are handed to `fire` when due. */
export interface Timer {
  kind: string;
  /** Emits the event if the stream's decider says it is still due, and marks the task done (or moves it). */
  fire(task: Task): Promise<void>;
}

/** Every timer the scheduler role fires. */
export const timersOf = (config: Config, pool: Pool): Timer[] => [
  bulkInactivityTimer({ pool, inactivitySeconds: config.bulk.inactivitySeconds }),
];
