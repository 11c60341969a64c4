import type { EventEnvelope, LogPosition } from '../../events/envelope.ts';
import type { Queryable } from '../postgres/pool.ts';
import { EVENT_COLUMNS, rowToEnvelope, type EventRow } from './rows.ts';

export interface ReadLogRequest {
  after: LogPosition;
  /** One virtual partition of the embedded log, or the whole log. */
  partition?: number;
  limit: number;
}

/**
 * Reads the log in commit order after a position. Only transactions older than every transaction
 * still running are read (pg_snapshot_xmin): a transaction that started earlier but commits later
 * is waited for, never skipped.
 */
export async function readLog(db: Queryable, req: ReadLogRequest): Promise<EventEnvelope[]> {
  const params: unknown[] = [req.after.txId.toString(), req.after.seq.toString(), req.limit];
  const partitionFilter = req.partition === undefined ? '' : `AND e.partition = $4`;
  if (req.partition !== undefined) params.push(req.partition);
  const r = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events e
      WHERE (e.tx_id, e.seq) > ($1::xid8, $2::bigint)
        AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ${partitionFilter}
      ORDER BY e.tx_id, e.seq
      LIMIT $3`,
    params,
  );
  return r.rows.map(rowToEnvelope);
}

/**
 * The log (or one partition) read as readLog reads it, and in the same statement (one snapshot)
 * whether committed events are held back behind an older running transaction: a reader woken by
 * a commit learns from its read that the commit's events are not readable yet, without a
 * heldBackPartitions query before each wait.
 */
export async function readAvailable(
  db: Queryable,
  req: ReadLogRequest,
): Promise<{ events: EventEnvelope[]; heldBack: boolean }> {
  const one = req.partition !== undefined;
  const partitionFilter = one ? 'AND partition = $4' : '';
  const r = await db.query<EventRow & { held_back: boolean; order_tx: string | null }>({
    name: one ? 'read_partition' : 'read_log',
    text: `SELECT h.held_back, e.* FROM
             (SELECT EXISTS (SELECT 1 FROM events WHERE tx_id >= pg_snapshot_xmin(pg_current_snapshot())
                               ${partitionFilter}) AS held_back) h
             LEFT JOIN LATERAL (
               SELECT ${EVENT_COLUMNS}, e.tx_id AS order_tx FROM events e
                WHERE (e.tx_id, e.seq) > ($1::xid8, $2::bigint)
                  AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
                  ${partitionFilter.replace('partition', 'e.partition')}
                ORDER BY e.tx_id, e.seq
                LIMIT $3) e ON true
           ORDER BY e.order_tx, e.seq`,
    values: [req.after.txId.toString(), req.after.seq.toString(), req.limit, ...(one ? [req.partition] : [])],
  });
  // No event read: the one row the join keeps has only held_back.
  const events = r.rows.filter((row) => row.id !== null).map(rowToEnvelope);
  return { events, heldBack: r.rows[0]?.held_back ?? false };
}

/**
 * The partitions whose committed events wait behind an older transaction still running (readLog
 * holds them back until it ends). That transaction may append nothing, so no notification would
 * follow its end: a reader that finds events held back looks again shortly instead of sleeping.
 */
export async function heldBackPartitions(db: Queryable): Promise<number[]> {
  const r = await db.query<{ partition: number }>(
    'SELECT DISTINCT partition FROM events WHERE tx_id >= pg_snapshot_xmin(pg_current_snapshot())',
  );
  return r.rows.map((row) => row.partition);
}

/** The pause of a reader that found events held back (heldBackPartitions). */
export const HELD_BACK_MS = 5;
