import type { DomainEvent } from '../core/decider.ts';

/**
 * The one event envelope. Domain code works with {type, data}; the envelope adds what the log
 * needs. `version` is the payload schema version the event was written with; readers upcast older
 * versions to the current one (events/define.ts).
 */
export interface EventEnvelope<P = unknown, T extends string = string> {
  id: string;
  type: T;
  version: number;
  accountId: string;
  streamId: string;
  /** 1-based position of the event in its stream (optimistic concurrency). */
  streamVersion: number;
  /** Commit-order position in the whole log (transaction id, then sequence inside it). */
  position: LogPosition;
  occurredAt: string;
  causationId: string | null;
  correlationId: string | null;
  payload: P;
  /**
   * On a credit movement (declared `movesCredits`): SHA-256 of the previous credit movement of the
   * stream (null for the first). Absent or null on every other event.
   */
  prevHash?: string | null;
}

/**
 * Commit order of the log. Events are ordered by the id of the transaction that wrote them, then by
 * their sequence inside it; a reader only takes transactions older than every still-running one,
 * so a late commit is never skipped (infra/eventStore/readLog.ts).
 */
export interface LogPosition {
  txId: bigint;
  seq: bigint;
}

export const START: LogPosition = { txId: 0n, seq: 0n };

export const comparePositions = (a: LogPosition, b: LogPosition): number =>
  a.txId !== b.txId ? (a.txId < b.txId ? -1 : 1) : a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;

export const formatPosition = (p: LogPosition): string => `${p.txId}:${p.seq}`;

export const parsePosition = (s: string): LogPosition => {
  const m = /^(\d+):(\d+)$/.exec(s);
  if (!m) throw new Error(`bad log position "${s}"`);
  return { txId: BigInt(m[1]!), seq: BigInt(m[2]!) };
};

/**
 * The domain event an envelope carries, typed as the stream's union: the store checked its payload
 * against its type's schema on append, and readers upcast older versions, so the cast holds.
 */
export const domainEventOf = <E extends DomainEvent = DomainEvent>(e: Pick<EventEnvelope, 'type' | 'payload'>): E =>
  ({ type: e.type, data: e.payload }) as E;
