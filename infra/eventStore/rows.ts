import type { EventEnvelope } from '../../events/envelope.ts';
import { eventDefinition, hasEventDefinition } from '../../events/registry.ts';

export interface EventRow {
  seq: string;
  tx_text: string;
  id: string;
  stream_id: string;
  stream_version: number;
  account_id: string;
  type: string;
  version: number;
  occurred_at: Date;
  causation_id: string | null;
  correlation_id: string | null;
  payload: unknown;
  prev_hash: string | null;
}

// The text form of tx_id gets a name of its own: an output column named tx_id would capture
// ORDER BY tx_id and sort transaction ids as text ('1005' before '943').
export const EVENT_COLUMNS =
  'seq, tx_id::text AS tx_text, id, stream_id, stream_version, account_id, type, version, occurred_at, causation_id, correlation_id, payload, prev_hash';

/** A stored row as the current code sees it: older payload versions are upcast on read. */
export const rowToEnvelope = (r: EventRow): EventEnvelope => {
  const def = hasEventDefinition(r.type) ? eventDefinition(r.type) : undefined;
  return {
    id: r.id,
    type: r.type,
    version: def ? def.latest : r.version,
    accountId: r.account_id,
    streamId: r.stream_id,
    streamVersion: r.stream_version,
    position: { txId: BigInt(r.tx_text), seq: BigInt(r.seq) },
    occurredAt: r.occurred_at.toISOString(),
    causationId: r.causation_id,
    correlationId: r.correlation_id,
    payload: def && r.version < def.latest ? def.upcast(r.version, r.payload) : r.payload,
    prevHash: r.prev_hash,
  };
};
