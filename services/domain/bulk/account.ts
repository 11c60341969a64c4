import { BulkClosed, BulkOpened, type AccountBulkEvent } from '../../../events/account/bulk.ts';
import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
import { accountDecider, balanceOf, CREDITS_PER_CHARGE, type AccountState } from '../account/decider.ts';
import type { Decider } from '../../../core/decider.ts';

/**
 * A batch on its account's stream: one open batch at a time (spec 4.4 rule 5) and its credits
 * reserved at submission, in one decision. Reservation rather than a check per entry: each entry's
 * credit is charged up front (an ordinary `CreditCharged` of its audit), so a batch can never spend
 * more than its account held, nothing else can take the credits it counts on, and the ledger stays
 * the plain sum of its events. Entries that turn out unreachable, and entries that never start
 * (cancel, timeout), get their charge refunded by the bulk role.
 */
export interface AccountBulkState {
  account: AccountState;
  openBulkId: string | null;
}

export type AccountBulkCommand =
  | {
      type: 'OpenBulk';
      data: {
        bulkId: string;
        entries: readonly { auditId: string; jobId: string; url: string }[];
        project: string | null;
      };
    }
  | { type: 'CloseBulk'; data: { bulkId: string } };

const initialState = (): AccountBulkState => ({ account: accountDecider.initialState(), openBulkId: null });

const evolve = (state: AccountBulkState, event: AccountBulkEvent | AccountEvent): AccountBulkState => {
  switch (event.type) {
    case 'BulkOpened':
      return { ...state, openBulkId: event.data.bulkId };
    case 'BulkClosed':
      return state.openBulkId === event.data.bulkId ? { ...state, openBulkId: null } : state;
    default:
      return { ...state, account: accountDecider.evolve(state.account, event) };
  }
};

const decide = (command: AccountBulkCommand, state: AccountBulkState): (AccountBulkEvent | AccountEvent)[] => {
  if (state.account.status !== 'Open') throw new AppError('not_found', 'account not found');
  switch (command.type) {
    case 'OpenBulk': {
      const { bulkId, entries, project } = command.data;
      if (state.openBulkId === bulkId) return [];
      if (state.openBulkId !== null) {
        // blockingStatus is the batch's own state; the caller reads it from the batch's stream.
        throw new AppError(
          'bulk_in_progress',
          `Another bulk request is running on this account (${state.openBulkId})`,
          { blockingBulkId: state.openBulkId },
        );
      }
      const needed = entries.length * CREDITS_PER_CHARGE;
      if (!state.account.unlimited && balanceOf(state.account) < needed) {
        throw new AppError(
          'insufficient_credits',
          `Insufficient credits: the batch needs ${needed}, the balance is ${balanceOf(state.account)}`,
        );
      }
      const events: (AccountBulkEvent | AccountEvent)[] = [BulkOpened({ bulkId })];
      let account: AccountState = state.account;
      for (const e of entries) {
        const charged = accountDecider.decide(
          { type: 'ChargeCredit', data: { kind: 'audit', subjectId: e.auditId, jobId: e.jobId, url: e.url, project } },
          account,
        );
        for (const c of charged) account = accountDecider.evolve(account, c);
        events.push(...charged);
      }
      return events;
    }
    case 'CloseBulk':
      return state.openBulkId === command.data.bulkId ? [BulkClosed({ bulkId: command.data.bulkId })] : [];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};

/** Folds the whole account stream; decides only the batch's opening (with its reservation) and closing. */
export const accountBulkDecider: Decider<AccountBulkCommand, AccountBulkEvent | AccountEvent, AccountBulkState> = {
  decide,
  evolve,
  initialState,
};
