import type { Kafka } from 'kafkajs';
import { LOG_PARTITIONS } from '../eventStore/schema.ts';
import { eventsTopic, type KafkaSettings } from '../kafka/client.ts';
import type { Pool } from '../postgres/pool.ts';

/** Events a group reading the store has yet to apply, counted up to `bound` (beyond it the exact number does not matter). */
export async function storeLag(pool: Pool, groupId: string, bound: number): Promise<number> {
  let lag = 0;
  for (let p = 0; p < LOG_PARTITIONS && lag <= bound; p++) {
    const r = await pool.query<{ c: number }>(
      `SELECT count(*)::int AS c FROM (
         SELECT 1 FROM events e
          WHERE e.partition = $2
            AND (e.tx_id, e.seq) > coalesce((SELECT (c.tx_id, c.seq) FROM subscription_checkpoints c
                                              WHERE c.group_id = $1 AND c.source = 'log' AND c.partition = $2), ('0'::xid8, 0::bigint))
          LIMIT $3) x`,
      [groupId, p, bound + 1],
    );
    lag += r.rows[0]!.c;
  }
  return lag;
}

/**
 * Events committed to the store that a relay-like reader of the whole log (one checkpoint, on
 * partition 0 of `source`) has yet to pass on, counted up to `bound`.
 */
export async function logReaderLag(pool: Pool, groupId: string, source: string, bound: number): Promise<number> {
  const r = await pool.query<{ c: number }>(
    `SELECT count(*)::int AS c FROM (
       SELECT 1 FROM events e
        WHERE (e.tx_id, e.seq) > coalesce((SELECT (c.tx_id, c.seq) FROM subscription_checkpoints c
                                            WHERE c.group_id = $1 AND c.source = $2 AND c.partition = 0), ('0'::xid8, 0::bigint))
        LIMIT $3) x`,
    [groupId, source, bound + 1],
  );
  return r.rows[0]!.c;
}

/** Messages of the events topic a group reading Kafka has yet to apply (its checkpoints are in PostgreSQL). */
export async function kafkaLag(pool: Pool, kafka: Kafka, settings: KafkaSettings, groupId: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topic = eventsTopic(settings.topicPrefix);
    const ends = await admin.fetchTopicOffsets(topic);
    const cps = await pool.query<{ partition: number; kafka_offset: string }>(
      'SELECT partition, kafka_offset FROM subscription_checkpoints WHERE group_id = $1 AND source = $2',
      [groupId, topic],
    );
    const at = new Map(cps.rows.map((r) => [r.partition, Number(r.kafka_offset)]));
    return ends.reduce((sum, e) => sum + Math.max(0, Number(e.high) - (at.get(e.partition) ?? Number(e.low))), 0);
  } finally {
    await admin.disconnect();
  }
}
