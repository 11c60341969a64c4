import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';

/** Spec 8: 1 credit per audit and per new apply generation. */
export const CREDITS_PER_CHARGE = 1;

/** What every credit rule reads of an account. */
export interface CreditView {
  unlimited: boolean;
  balance: number;
}

/**
 * The one `insufficient_credits` decision (spec 2.8, 4.4, 4.11): an unlimited account always has
 * enough; any other needs `needed` credits. `what` names a multi-credit need (a batch) in the message.
 */
export const requireCredits = (view: CreditView, needed: number, what?: string): void => {
  if (view.unlimited || view.balance >= needed) return;
  throw new AppError(
    'insufficient_credits',
    what ? `Insufficient credits: ${what} needs ${needed}, the balance is ${view.balance}` : 'Insufficient credits',
  );
};

/**
 * How an event moves the balance, the one arithmetic of it: the full account state and the
 * compact admission view (admissionView.ts) both fold with it. A refund carries its charge's credits.
 */
export const balanceDelta = (event: AccountEvent): number => {
  switch (event.type) {
    case 'CreditsPurchased':
    case 'CreditRefunded':
      return event.data.credits;
    case 'CreditCharged':
      return -event.data.credits;
    case 'CreditsAdjusted':
      return event.data.delta;
    default:
      return 0;
  }
};
