import type { Queryable } from '../../infra/postgres/pool.ts';
import { enqueueTask, scheduleTask } from '../../infra/taskQueue/taskQueue.ts';

/** The bulk role's work: move a batch on (start its next entry, record one that ended). */
export const BULK_ADVANCE = 'bulk.advance';
/** The scheduler's timer closing a batch without progress (spec 3.2). */
export const BULK_INACTIVITY = 'bulk.inactivity';

/** The default of BULK_INACTIVITY_SECONDS: spec 3.2's 15 minutes. */
export const DEFAULT_BULK_INACTIVITY_SECONDS = 900;

/**
 * Asks the bulk role to move a batch on, recorded in the transaction that made it due (submission,
 * an entry's audit ending). One task per cause, so a cause that arrives while another advance of
 * the same batch runs is never lost; advancing is idempotent, so a spare task does nothing.
 */
export const requestAdvance = (tx: Queryable, accountId: string, bulkId: string, cause: string): Promise<void> =>
  enqueueTask(tx, BULK_ADVANCE, accountId, `${bulkId}:${cause}`);

export const bulkIdOfTask = (subjectId: string): string => subjectId.split(':')[0]!;

/** (Re)arms the batch's inactivity timer: due `seconds` after its last progress. */
export const armInactivity = (
  tx: Queryable,
  accountId: string,
  bulkId: string,
  lastProgressAt: string,
  seconds: number,
): Promise<void> =>
  scheduleTask(tx, BULK_INACTIVITY, accountId, bulkId, new Date(Date.parse(lastProgressAt) + seconds * 1000));
