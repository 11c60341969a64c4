import { AuditAdmitted, AuditReleased, type AdmissionEvent } from '../../../events/account/admission.ts';
import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
import { accountDecider, balanceOf, type AccountState } from '../account/decider.ts';
import type { Decider } from '../../../core/decider.ts';

/**
 * Admission of audits, decided on the account stream next to the ledger: at submission the account
 * must have a credit (unless unlimited: spec 2.8) and fewer than three audits in flight, queued ones
 * included (spec 8: at most 3 audits at a time per account; a queued audit will run, so it counts).
 * The balance is only checked here; the credit is taken after content and CSI (spec 3.1).
 */
export const MAX_AUDITS_IN_FLIGHT = 3;
/** What a 429 for the concurrency limit tells the client to wait: about one poll interval (spec 4.3). */
export const CONCURRENCY_RETRY_AFTER_SECONDS = 15;

export interface AdmissionState {
  account: AccountState;
  inFlight: ReadonlySet<string>;
}

export type AdmissionCommand =
  { type: 'AdmitAudit'; data: { auditId: string } } | { type: 'ReleaseAudit'; data: { auditId: string } };

const initialState = (): AdmissionState => ({ account: accountDecider.initialState(), inFlight: new Set() });

const evolve = (state: AdmissionState, event: AdmissionEvent | AccountEvent): AdmissionState => {
  switch (event.type) {
    case 'AuditAdmitted':
      return { ...state, inFlight: new Set(state.inFlight).add(event.data.auditId) };
    case 'AuditReleased': {
      const inFlight = new Set(state.inFlight);
      inFlight.delete(event.data.auditId);
      return { ...state, inFlight };
    }
    default:
      return { ...state, account: accountDecider.evolve(state.account, event) };
  }
};

const decide = (command: AdmissionCommand, state: AdmissionState): AdmissionEvent[] => {
  if (state.account.status !== 'Open') throw new AppError('not_found', 'account not found');
  const { auditId } = command.data;
  switch (command.type) {
    case 'AdmitAudit':
      if (state.inFlight.has(auditId)) return [];
      if (!state.account.unlimited && balanceOf(state.account) < 1)
        throw new AppError('insufficient_credits', 'Insufficient credits');
      if (state.inFlight.size >= MAX_AUDITS_IN_FLIGHT) {
        throw new AppError(
          'rate_limited',
          `At most ${MAX_AUDITS_IN_FLIGHT} audits at a time per account; wait for one to finish`,
          {
            retryAfter: CONCURRENCY_RETRY_AFTER_SECONDS,
          },
        );
      }
      return [AuditAdmitted({ auditId })];
    case 'ReleaseAudit':
      return state.inFlight.has(auditId) ? [AuditReleased({ auditId })] : [];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};

/** Folds the whole account stream (ledger events too); decides only admission events. */
export const admissionDecider: Decider<AdmissionCommand, AdmissionEvent | AccountEvent, AdmissionState> = {
  decide,
  evolve,
  initialState,
};
