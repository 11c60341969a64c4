import { createHash } from 'node:crypto';
import { allEventDefinitions, hasEventDefinition, eventDefinition } from '../../events/registry.ts';
import type { Migration } from '../postgres/migrate.ts';
import type { Queryable } from '../postgres/pool.ts';

/**
 * The hash chain of a stream's credit movements (the event types the catalogue declares
 * `movesCredits`; nothing here names one). Each such event carries `prevHash`, the hash of the
 * previous credit movement of its stream (null for the first), and its own hash covers its stored
 * form and that link. Rewriting, inserting, removing or reordering one breaks the link after it,
 * unless every later hash is recomputed too: tamper-evident, not tamper-proof.
 */
export const hashChainMigration: Migration = {
  id: '0005_event_hash_chain',
  sql: `ALTER TABLE events ADD COLUMN IF NOT EXISTS prev_hash text;`,
};

export const isChained = (type: string): boolean => hasEventDefinition(type) && eventDefinition(type).movesCredits;
export const chainedTypes = (): string[] =>
  allEventDefinitions()
    .filter((d) => d.movesCredits)
    .map((d) => d.type);

/** An event as stored (payload as written, version as written): what its hash covers. */
export interface StoredEvent {
  id: string;
  type: string;
  version: number;
  accountId: string;
  streamId: string;
  streamVersion: number;
  occurredAt: string;
  payload: unknown;
  prevHash: string | null;
}

/** JSON with object keys sorted at every depth: jsonb does not keep the order they were written in. */
const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
};

export const eventHash = (e: StoredEvent): string =>
  createHash('sha256')
    .update(
      canonical([
        e.prevHash,
        e.id,
        e.type,
        e.version,
        e.accountId,
        e.streamId,
        e.streamVersion,
        e.occurredAt,
        JSON.parse(JSON.stringify(e.payload ?? null)),
      ]),
    )
    .digest('hex');

interface StoredRow {
  id: string;
  type: string;
  version: number;
  account_id: string;
  stream_id: string;
  stream_version: number;
  occurred_at: Date;
  payload: unknown;
  prev_hash: string | null;
}

const STORED_COLUMNS = 'id, type, version, account_id, stream_id, stream_version, occurred_at, payload, prev_hash';
const stored = (r: StoredRow): StoredEvent => ({
  id: r.id,
  type: r.type,
  version: r.version,
  accountId: r.account_id,
  streamId: r.stream_id,
  streamVersion: r.stream_version,
  occurredAt: r.occurred_at.toISOString(),
  payload: r.payload,
  prevHash: r.prev_hash,
});

/** The hash of the stream's last credit movement at or below `version` (null: none yet). */
export async function chainHead(db: Queryable, streamId: string, version: number): Promise<string | null> {
  const r = await db.query<StoredRow>(
    `SELECT ${STORED_COLUMNS} FROM events WHERE stream_id = $1 AND stream_version <= $2 AND type = ANY($3) ORDER BY stream_version DESC LIMIT 1`,
    [streamId, version, chainedTypes()],
  );
  return r.rows[0] ? eventHash(stored(r.rows[0])) : null;
}

export interface ChainProblem {
  /** Stream version and log position ("txid:seq") of the event where the chain breaks. */
  streamVersion: number;
  position: string | null;
  message: string;
}

/**
 * Checks a stream from its stored rows alone: versions without gaps, and every credit movement
 * linked to the one before it. Names the event where each break is found.
 */
export async function checkChain(
  db: Queryable,
  streamId: string,
): Promise<{ chained: number; unchained: number; problems: ChainProblem[] }> {
  const r = await db.query<StoredRow & { position: string }>(
    `SELECT ${STORED_COLUMNS}, tx_id::text || ':' || seq AS position FROM events WHERE stream_id = $1 ORDER BY stream_version`,
    [streamId],
  );
  const problems: ChainProblem[] = [];
  let expected = 1;
  let previous: { hash: string; streamVersion: number; position: string } | undefined;
  let chained = 0;
  let unchained = 0;
  const credits = r.rows.filter((row) => isChained(row.type));
  // Credit events written before the chain existed carry no link; they may only come first.
  const firstLinked = credits.findIndex((row) => row.prev_hash !== null);
  for (const row of r.rows) {
    if (row.stream_version !== expected) {
      problems.push({
        streamVersion: row.stream_version,
        position: row.position,
        message:
          row.stream_version > expected
            ? `stream versions ${expected}..${row.stream_version - 1} are missing before the event at stream version ${row.stream_version} (position ${row.position})`
            : `stream version ${row.stream_version} (position ${row.position}) appears twice`,
      });
    }
    expected = row.stream_version + 1;
  }
  credits.forEach((row, i) => {
    const e = stored(row);
    const at = `stream version ${e.streamVersion} (position ${row.position})`;
    if (e.prevHash === null) {
      if (i === 0) chained++;
      else if (firstLinked < 0 || i < firstLinked) unchained++;
      else
        problems.push({
          streamVersion: e.streamVersion,
          position: row.position,
          message: `hash chain broken at ${at}: the credit event has lost its link to the one before it`,
        });
    } else if (e.prevHash !== previous?.hash) {
      problems.push({
        streamVersion: e.streamVersion,
        position: row.position,
        message: previous
          ? `hash chain broken at ${at}: it does not follow the credit event at stream version ${previous.streamVersion} (position ${previous.position}); that event was changed, or a credit event between them was inserted, removed or moved`
          : `hash chain broken at ${at}: it links to a credit event that is not before it in the stream (removed or moved)`,
      });
    } else chained++;
    previous = { hash: eventHash(e), streamVersion: e.streamVersion, position: row.position };
  });
  return { chained, unchained, problems };
}
