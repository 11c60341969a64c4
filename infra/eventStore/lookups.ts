import type { Queryable } from '../postgres/pool.ts';

/** How many events the log holds (the size of a full export, for its progress bar). */
export async function countEvents(db: Queryable): Promise<number> {
  const r = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM events');
  return Number(r.rows[0]!.n);
}

/** How many streams begin with an event of this type (e.g. accounts: AccountOpened). */
export async function countStreamsOpenedBy(db: Queryable, type: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM events WHERE stream_version = 1 AND type = $1',
    [type],
  );
  return r.rows[0]!.n;
}

/**
 * One page of the streams that begin with an event of this type, in stream id order after `after`
 * (keyset over the stream index: bounded memory whatever the number of streams).
 */
export async function streamsOpenedBy(
  db: Queryable,
  type: string,
  after: string,
  limit: number,
): Promise<{ streamId: string; accountId: string }[]> {
  const r = await db.query<{ account_id: string; stream_id: string }>(
    'SELECT account_id, stream_id FROM events WHERE stream_version = 1 AND type = $1 AND stream_id > $2 ORDER BY stream_id LIMIT $3',
    [type, after, limit],
  );
  return r.rows.map((x) => ({ streamId: x.stream_id, accountId: x.account_id }));
}

/** The stream (and its account) of the first event of `type` whose payload field `field` equals `value`. */
export async function findStreamByPayload(
  db: Queryable,
  type: string,
  field: string,
  value: string,
): Promise<{ streamId: string; accountId: string } | null> {
  const r = await db.query<{ stream_id: string; account_id: string }>(
    'SELECT stream_id, account_id FROM events WHERE type = $1 AND payload->>$2 = $3 LIMIT 1',
    [type, field, value],
  );
  const row = r.rows[0];
  return row ? { streamId: row.stream_id, accountId: row.account_id } : null;
}
