import { BulkClosed, BulkOpened, type AccountBulkEvent } from '../../../events/account/bulk.ts';
import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
import { chargeCredit } from './charges.ts';
import type { CloseBulk, OpenBulk } from './commands.ts';
import { CREDITS_PER_CHARGE, requireCredits } from './credits.ts';
import { evolve, type AccountState, type OpenedAccount } from './state.ts';

/**
 * A batch on its account's stream: one open batch at a time (spec 4.4 rule 5) and its credits
 * reserved at submission, in one decision. Reservation rather than a check per entry: each entry's
 * credit is charged up front (an ordinary `CreditCharged` of its audit), so a batch can never spend
 * more than its account held, nothing else can take the credits it counts on, and the ledger stays
 * the plain sum of its events. Entries that turn out unreachable, and entries that never start
 * (cancel, timeout), get their charge refunded by the bulk role.
 */
export const openBulk = ({ data }: OpenBulk, state: OpenedAccount): (AccountBulkEvent | AccountEvent)[] => {
  const { bulkId, entries, project } = data;
  if (state.openBulkId === bulkId) return [];
  if (state.openBulkId !== null) {
    // blockingStatus is the batch's own state; the caller reads it from the batch's stream.
    throw new AppError('bulk_in_progress', `Another bulk request is running on this account (${state.openBulkId})`, {
      blockingBulkId: state.openBulkId,
    });
  }
  requireCredits(state, entries.length * CREDITS_PER_CHARGE, 'the batch');
  const events: (AccountBulkEvent | AccountEvent)[] = [BulkOpened({ bulkId })];
  let account: AccountState = state;
  for (const e of entries) {
    const charged = chargeCredit(
      { type: 'ChargeCredit', data: { kind: 'audit', subjectId: e.auditId, jobId: e.jobId, url: e.url, project } },
      account as OpenedAccount,
    );
    for (const c of charged) account = evolve(account, c);
    events.push(...charged);
  }
  return events;
};

export const closeBulk = ({ data }: CloseBulk, state: OpenedAccount): AccountBulkEvent[] =>
  state.openBulkId === data.bulkId ? [BulkClosed({ bulkId: data.bulkId })] : [];
