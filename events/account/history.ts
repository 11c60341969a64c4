/**
 * A spec 2.8 history entry, with the additions of issue 3: types `apply` and `adjustment`. Here,
 * below both, because the ledger projection serves it and the account's replay (historyOf in
 * services/domain/account/ledger.ts) rebuilds it from the events, to check the one against the other.
 */
export interface HistoryEntry {
  type: 'audit' | 'apply' | 'purchase' | 'adjustment';
  /** `aud_...` audit id, apply revision id, `pay_...` payment id, or adjustment id. */
  id: string;
  delta: number;
  refunded: boolean;
  url: string | null;
  project: string | null;
  createdAt: string;
}
