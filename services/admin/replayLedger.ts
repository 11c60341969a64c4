import { accountStreamId, type AccountEvent } from '../../events/account/index.ts';
import { creditMovementTypes } from '../../events/catalogue.ts';
import { formatPosition } from '../../events/envelope.ts';
import { readStream } from '../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { accountDecider, balanceOf, usedOf } from '../domain/account/decider.ts';
import { AppError } from '../../core/errors.ts';

/** One credit movement as it happened, with the balance right after it. */
export interface ReplayEntry {
  /** Log position ("txid:seq", commit order) and stream version of the event. */
  position: string;
  streamVersion: number;
  occurredAt: string;
  type: string;
  eventId: string;
  /** What moved: the payment, charge or adjustment id. */
  ref: string;
  delta: number;
  balance: number;
}

export interface LedgerReplay {
  accountId: string;
  at: string | null;
  entries: ReplayEntry[];
  /** The balance after the last entry (at `at`, when given). */
  balance: number;
  used: number;
}

const refOf = (payload: Record<string, unknown>): string =>
  String(
    payload.chargeId ?? payload.paymentId ?? payload.adjustmentId ?? payload.reservationId ?? payload.subjectId ?? '',
  );

/**
 * The account's credit history from the event log alone (no projection): the account decider folds
 * the stream, so the balance is the domain's own; an entry is every event the catalogue declares
 * `movesCredits`, its delta the change of balance it made (a refund of an unknown charge moves 0).
 */
export async function replayLedger(db: Queryable, accountId: string, at?: Date): Promise<LedgerReplay> {
  const events = await readStream(db, accountStreamId(accountId));
  if (events.length === 0) throw new AppError('not_found', `account ${accountId} not found`);
  let state = accountDecider.initialState();
  const entries: ReplayEntry[] = [];
  for (const e of events) {
    if (at && new Date(e.occurredAt) > at) break;
    const before = balanceOf(state);
    state = accountDecider.evolve(state, { type: e.type, data: e.payload } as AccountEvent);
    if (!creditMovementTypes.includes(e.type)) continue;
    const balance = balanceOf(state);
    entries.push({
      position: formatPosition(e.position),
      streamVersion: e.streamVersion,
      occurredAt: e.occurredAt,
      type: e.type,
      eventId: e.id,
      ref: refOf(e.payload as Record<string, unknown>),
      delta: balance - before,
      balance,
    });
  }
  return { accountId, at: at?.toISOString() ?? null, entries, balance: balanceOf(state), used: usedOf(state) };
}

const CSV_COLUMNS = ['position', 'streamVersion', 'occurredAt', 'type', 'eventId', 'ref', 'delta', 'balance'] as const;

/** RFC 4180: quoted when it holds a comma, a quote or a line break. */
export const csvField = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const replayCsv = (r: LedgerReplay): string =>
  [CSV_COLUMNS.join(','), ...r.entries.map((e) => CSV_COLUMNS.map((c) => csvField(e[c])).join(','))].join('\n') + '\n';
