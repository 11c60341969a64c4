import type { AccountEvent } from '../../../events/account/index.ts';
import type { Decider } from '../../../core/decider.ts';
import type { AccountCommand } from './commands.ts';
import { decide } from './decide.ts';
import { evolve, initialState, type AccountState } from './state.ts';

/** The account stream's decider: accounts, API keys and the credit ledger. */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = { decide, evolve, initialState };

export type { AccountCommand } from './commands.ts';
export type { AccountState, ApiKeyState, ChargeState, OpenedAccount } from './state.ts';
export {
  balanceOf,
  chargeIdFor,
  chargeOf,
  historyOf,
  usedOf,
  CREDITS_PER_CHARGE,
  type HistoryEntry,
  type TimedEvent,
} from './ledger.ts';
export { entriesOf, getIn, toRecord, type PMap } from './pmap.ts';
