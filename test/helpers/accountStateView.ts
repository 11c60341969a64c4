import { toRecord } from '../../services/domain/account/decider.ts';
import type { AccountState } from '../../services/domain/account/state.ts';

/** An account decider's state made comparable by `t.same`: maps as sorted records, sets as arrays. */
export const accountStateView = (s: AccountState) =>
  s.status === 'NotOpened'
    ? s
    : {
        ...s,
        charges: toRecord(s.charges),
        payments: toRecord(s.payments),
        adjustments: toRecord(s.adjustments),
        auditsInFlight: [...s.auditsInFlight],
        generationsInFlight: [...s.generationsInFlight],
      };
