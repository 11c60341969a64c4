import type { LogPosition } from '../../events/envelope.ts';
import type { Queryable } from '../postgres/pool.ts';

export interface Checkpoint {
  position: LogPosition;
  kafkaOffset: bigint | null;
}

export async function loadCheckpoint(
  db: Queryable,
  groupId: string,
  source: string,
  partition: number,
): Promise<Checkpoint | null> {
  const r = await db.query<{ tx_text: string; seq: string; kafka_offset: string | null }>(
    'SELECT tx_id::text AS tx_text, seq, kafka_offset FROM subscription_checkpoints WHERE group_id = $1 AND source = $2 AND partition = $3',
    [groupId, source, partition],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    position: { txId: BigInt(row.tx_text), seq: BigInt(row.seq) },
    kafkaOffset: row.kafka_offset === null ? null : BigInt(row.kafka_offset),
  };
}

/** Another member took the partition over and moved its checkpoint: this member must stop writing. */
export class FencedError extends Error {
  constructor(groupId: string, partition: number) {
    super(`checkpoint of ${groupId} partition ${partition} moved under us`);
    this.name = 'FencedError';
  }
}

/**
 * Compare-and-set: moves the checkpoint only if it is still where this member read it. Runs in the
 * consumer's transaction, so its writes and its progress commit together or not at all.
 */
export async function saveCheckpoint(
  db: Queryable,
  groupId: string,
  source: string,
  partition: number,
  previous: Checkpoint | null,
  next: Checkpoint,
): Promise<void> {
  const params = [
    groupId,
    source,
    partition,
    next.position.txId.toString(),
    next.position.seq.toString(),
    next.kafkaOffset?.toString() ?? null,
  ];
  const r = previous
    ? await db.query(
        `UPDATE subscription_checkpoints SET tx_id = $4::xid8, seq = $5, kafka_offset = $6, updated_at = now()
          WHERE group_id = $1 AND source = $2 AND partition = $3 AND tx_id = $7::xid8 AND seq = $8`,
        [...params, previous.position.txId.toString(), previous.position.seq.toString()],
      )
    : await db.query(
        `INSERT INTO subscription_checkpoints (group_id, source, partition, tx_id, seq, kafka_offset)
         VALUES ($1, $2, $3, $4::xid8, $5, $6) ON CONFLICT DO NOTHING`,
        params,
      );
  if (r.rowCount !== 1) throw new FencedError(groupId, partition);
}
