import type { Decider } from '../../../core/decider.ts';
import type { AccountCommand } from './commands.ts';
import { decide } from './decide.ts';
import { accountSnapshot } from './snapshot.ts';
import { evolve, initialState, type AccountState, type AccountStreamEvent } from './state.ts';

/**
 * The account stream's one decider: accounts, API keys, the credit ledger and every credit rule
 * (admission of audits and generations, a batch's reservation). admissionView.ts is a compact view
 * of its state for the submission path, deciding with the same rules. Its state is kept as a
 * snapshot (snapshot.ts): a command reads the snapshot and the events after it.
 */
export const accountDecider: Decider<AccountCommand, AccountStreamEvent, AccountState> = {
  decide,
  evolve,
  initialState,
  snapshot: accountSnapshot,
};

export type { AccountCommand } from './commands.ts';
export type { AccountState, AccountStreamEvent, ApiKeyState, ChargeState, OpenedAccount } from './state.ts';
export { CREDITS_PER_CHARGE } from './credits.ts';
export {
  MAX_AUDITS_IN_FLIGHT,
  CONCURRENCY_RETRY_AFTER_SECONDS,
  MAX_GENERATIONS_IN_FLIGHT,
  GENERATION_RETRY_AFTER_SECONDS,
} from './admission.ts';
export { balanceOf, chargeIdFor, chargeOf, historyOf, usedOf, type HistoryEntry, type TimedEvent } from './ledger.ts';
export { entriesOf, getIn, toRecord, type PersistentMap } from './persistentMap.ts';
