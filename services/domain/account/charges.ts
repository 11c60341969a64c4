import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
import type { ChargeCredit, RefundCharge } from './commands.ts';
import { CREDITS_PER_CHARGE, requireCredits } from './credits.ts';
import { chargeIdFor } from './ledger.ts';
import { getIn } from './persistentMap.ts';
import type { OpenedAccount } from './state.ts';
import { required, subject } from './validate.ts';

export const chargeCredit = ({ data }: ChargeCredit, state: OpenedAccount): AccountEvent[] => {
  subject(data.kind, data.subjectId);
  const chargeId = chargeIdFor(data.kind, data.subjectId);
  // Charged once, ever: also after a refund, a repeat does not charge again.
  if (getIn(state.charges, chargeId)) return [];
  // Unlimited accounts are never charged and leave no charge in the ledger (spec 2.8: used 0).
  if (state.unlimited) return [];
  requireCredits(state, CREDITS_PER_CHARGE);
  return [
    {
      type: 'CreditCharged',
      data: {
        chargeId,
        kind: data.kind,
        subjectId: data.subjectId,
        credits: CREDITS_PER_CHARGE,
        jobId: data.jobId,
        url: data.url,
        project: data.project,
      },
    },
  ];
};

export const refundCharge = ({ data }: RefundCharge, state: OpenedAccount): AccountEvent[] => {
  subject(data.kind, data.subjectId);
  required('reason', data.reason);
  const chargeId = chargeIdFor(data.kind, data.subjectId);
  const charge = getIn(state.charges, chargeId);
  if (!charge) {
    // An unlimited account was not charged, so there is nothing to give back; callers (failed
    // apply, bulk cancel) need not know whether the account pays.
    if (state.unlimited) return [];
    throw new AppError('not_found', `no charge for ${data.kind} ${data.subjectId}`);
  }
  if (charge.refunded) return [];
  return [{ type: 'CreditRefunded', data: { chargeId, credits: charge.credits, reason: data.reason } }];
};
