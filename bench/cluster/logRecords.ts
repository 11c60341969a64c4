import { decodeEvent } from '../../infra/kafka/codec.ts';
import { formatPosition } from '../../events/envelope.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import type { LogRecord, TopicRecord } from './checker.ts';

/** Every event of the store, in commit order, as the checker reads it. */
export async function storedRecords(db: Queryable): Promise<LogRecord[]> {
  const r = await db.query<{ id: string; stream_id: string; stream_version: number; position: string }>(
    `SELECT id, stream_id, stream_version, tx_id::text || ':' || seq AS position FROM events ORDER BY tx_id, seq`,
  );
  return r.rows.map((e) => ({
    id: e.id,
    streamId: e.stream_id,
    streamVersion: e.stream_version,
    position: e.position,
  }));
}

/** A message as read off the topic. */
export interface RawMessage {
  partition: number;
  value: Buffer;
  headers: Record<string, string>;
}

/** The topic's messages, decoded to what the checker needs, in the order they were read. */
export const topicRecords = (messages: RawMessage[]): Promise<TopicRecord[]> =>
  Promise.all(
    messages.map(async (m) => {
      const e = await decodeEvent(m.value, m.headers);
      return {
        partition: m.partition,
        id: e.id,
        streamId: e.streamId,
        streamVersion: e.streamVersion,
        position: formatPosition(e.position),
      };
    }),
  );
