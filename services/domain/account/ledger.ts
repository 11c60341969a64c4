import type { HistoryEntry } from '../../../events/account/history.ts';
import type { ChargeKind } from '../../../events/account/index.ts';
import { getIn } from './persistentMap.ts';
import type { AccountState, AccountStreamEvent, ChargeState } from './state.ts';

export type { HistoryEntry };

/**
 * The one charge of a subject. Deriving it (rather than taking it from the caller) is what makes
 * "charged at most once, whatever is retried, raced or restarted" structural.
 */
export const chargeIdFor = (kind: ChargeKind, subjectId: string): string => `chg_${kind}_${subjectId}`;

/** The charge of a subject, if it was ever charged (refunded or not); none on unlimited accounts. */
export const chargeOf = (state: AccountState, kind: ChargeKind, subjectId: string): ChargeState | undefined =>
  state.status === 'Open' ? getIn(state.charges, chargeIdFor(kind, subjectId)) : undefined;

/** Remaining credits (spec 2.8 `remaining`); 0 for an account that does not exist. */
export const balanceOf = (state: AccountState): number => (state.status === 'Open' ? state.balance : 0);

/** Credits charged and not refunded (spec 2.8 `used`); 0 for unlimited accounts never charged. */
export const usedOf = (state: AccountState): number => (state.status === 'Open' ? state.used : 0);

/** An event with the time the log gave it (the envelope's `occurredAt`). */
export interface TimedEvent {
  event: AccountStreamEvent;
  occurredAt: string;
}

/**
 * The credit history of an account, NEWEST FIRST (spec 2.8 order), from its events in log order.
 *
 * Decisions, so that the sum of all deltas always equals the balance:
 * - every credit movement is one entry: purchase (+credits), audit/apply charge (-credits),
 *   adjustment (+/- delta, which the spec's service does not record);
 * - a refund is not an entry of its own: it turns its charge's entry into `refunded: true,
 *   delta: 0` (spec 2.8), keeping the charge's `createdAt`; so `used` = the sum of the charges'
 *   credits that are not refunded = -(sum of charge entries' deltas);
 * - unlimited accounts are never charged, so they have no charge entries (spec 2.8: used 0);
 * - events that move no credit (keys, unlimited flag) give no entry.
 */
export const historyOf = (events: readonly TimedEvent[]): HistoryEntry[] => {
  const entries: HistoryEntry[] = [];
  const byCharge = new Map<string, number>();
  for (const { event, occurredAt } of events) {
    switch (event.type) {
      case 'CreditsPurchased':
        entries.push(entry('purchase', event.data.paymentId, event.data.credits, occurredAt));
        break;
      case 'CreditCharged': {
        const { chargeId, kind, subjectId, credits, url, project } = event.data;
        byCharge.set(chargeId, entries.length);
        entries.push({ ...entry(kind, subjectId, -credits, occurredAt), url, project });
        break;
      }
      case 'CreditRefunded': {
        const index = byCharge.get(event.data.chargeId);
        const charged = index === undefined ? undefined : entries[index];
        if (charged && !charged.refunded) entries[index!] = { ...charged, delta: 0, refunded: true };
        break;
      }
      case 'CreditsAdjusted':
        entries.push(entry('adjustment', event.data.adjustmentId, event.data.delta, occurredAt));
        break;
      default:
        break;
    }
  }
  return entries.reverse();
};

const entry = (type: HistoryEntry['type'], id: string, delta: number, createdAt: string): HistoryEntry => ({
  type,
  id,
  delta,
  refunded: false,
  url: null,
  project: null,
  createdAt,
});
