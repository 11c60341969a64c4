import type { Snapshotting } from '../../core/decider.ts';
import type { Migration } from '../postgres/migrate.ts';
import type { PoolClient } from '../postgres/pool.ts';
import { EVENT_COLUMNS, rowToEnvelope, type EventRow } from './rows.ts';
import type { EventEnvelope } from '../../events/envelope.ts';

/**
 * Snapshots of a decider's state on a stream, written in the transaction of an append (so a
 * snapshot is always the fold of exactly the events up to its version) and read together with the
 * events after it in one query. Only a cache: deleting every row changes no decision.
 */
export const snapshotsMigration: Migration = {
  id: '0012_stream_snapshots',
  sql: `
    CREATE TABLE stream_snapshots (
      stream_id      text        NOT NULL,
      name           text        NOT NULL,
      state_version  integer     NOT NULL,
      stream_version integer     NOT NULL,
      state          jsonb       NOT NULL,
      PRIMARY KEY (stream_id, name)
    );
  `,
};

/** A snapshot is rewritten once the stream has moved this many events past it. */
export const SNAPSHOT_EVERY = 25;

export interface SnapshotRead {
  /** The snapshot's stream version and state, or null when there is none of this version. */
  snapshot: { version: number; state: unknown } | null;
  /** The events after the snapshot (the whole stream without one), in stream order. */
  events: EventEnvelope[];
}

type Row = EventRow & { requested: string; snap_version: number | null; snap_state: unknown };

/**
 * Each stream's snapshot and the events after it, for any number of streams in one round trip. The
 * snapshot's state comes with the stream's first row only (the first event after it, versions
 * having no gaps, or the row saying there is none): on every row, a large state (the account
 * decider's names every charge) was sent and parsed once per event read.
 */
export async function readWithSnapshots(
  db: Pick<PoolClient, 'query'>,
  streamIds: readonly string[],
  snapshotting: Snapshotting<unknown>,
): Promise<Map<string, SnapshotRead>> {
  const cols = EVENT_COLUMNS.split(', ')
    .map((c) => `e.${c}`)
    .join(', ');
  const r = await db.query<Row>({
    name: 'read_with_snapshots',
    text: `SELECT req.stream_id AS requested, s.stream_version AS snap_version,
            CASE WHEN e.stream_version IS NULL OR e.stream_version = COALESCE(s.stream_version, 0) + 1
                 THEN s.state END AS snap_state, ${cols}
       FROM unnest($1::text[]) AS req(stream_id)
       LEFT JOIN stream_snapshots s ON s.stream_id = req.stream_id AND s.name = $2 AND s.state_version = $3
       LEFT JOIN LATERAL (
         SELECT * FROM events WHERE stream_id = req.stream_id AND stream_version > COALESCE(s.stream_version, 0)
       ) e ON true
      ORDER BY req.stream_id, e.stream_version`,
    values: [[...new Set(streamIds)], snapshotting.name, snapshotting.version],
  });
  const reads = new Map<string, SnapshotRead>();
  for (const row of r.rows) {
    let read = reads.get(row.requested);
    if (!read) {
      const snapshot = row.snap_version !== null ? { version: row.snap_version, state: row.snap_state } : null;
      reads.set(row.requested, (read = { snapshot, events: [] }));
    }
    if (row.id !== null) read.events.push(rowToEnvelope(row));
  }
  return reads;
}

export async function writeSnapshot(
  tx: PoolClient,
  streamId: string,
  snapshotting: Snapshotting<unknown>,
  streamVersion: number,
  state: unknown,
): Promise<void> {
  await tx.query(
    `INSERT INTO stream_snapshots (stream_id, name, state_version, stream_version, state)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (stream_id, name) DO UPDATE
       SET state_version = EXCLUDED.state_version, stream_version = EXCLUDED.stream_version, state = EXCLUDED.state
       WHERE stream_snapshots.stream_version < EXCLUDED.stream_version
          OR stream_snapshots.state_version <> EXCLUDED.state_version`,
    [streamId, snapshotting.name, snapshotting.version, streamVersion, JSON.stringify(snapshotting.toJson(state))],
  );
}
