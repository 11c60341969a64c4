import { AuditAdmitted, AuditReleased, type AdmissionEvent } from '../../../events/account/admission.ts';
import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
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

/**
 * What admission needs of the account, and no more: whether it is open and unlimited, its balance,
 * and the audits in flight. Unlike the account decider's state it does not grow with the account's
 * history (no map of every charge), so it is kept as a snapshot (infra/eventStore/snapshots.ts) and
 * a submission reads the snapshot and the few events after it, not the account's whole life.
 */
export interface AdmissionState {
  open: boolean;
  unlimited: boolean;
  balance: number;
  inFlight: ReadonlySet<string>;
}

export type AdmissionCommand =
  { type: 'AdmitAudit'; data: { auditId: string } } | { type: 'ReleaseAudit'; data: { auditId: string } };

const initialState = (): AdmissionState => ({ open: false, unlimited: false, balance: 0, inFlight: new Set() });

const evolve = (state: AdmissionState, event: AdmissionEvent | AccountEvent): AdmissionState => {
  switch (event.type) {
    case 'AuditAdmitted':
      return { ...state, inFlight: new Set(state.inFlight).add(event.data.auditId) };
    case 'AuditReleased': {
      const inFlight = new Set(state.inFlight);
      inFlight.delete(event.data.auditId);
      return { ...state, inFlight };
    }
    // As the account decider folds them (state.ts): the log holds each movement once, and a
    // refund carries its charge's credits.
    case 'AccountOpened':
      return state.open ? state : { ...state, open: true, unlimited: event.data.unlimited };
    case 'UnlimitedSet':
      return { ...state, unlimited: event.data.unlimited };
    case 'CreditsPurchased':
    case 'CreditRefunded':
      return { ...state, balance: state.balance + event.data.credits };
    case 'CreditCharged':
      return { ...state, balance: state.balance - event.data.credits };
    case 'CreditsAdjusted':
      return { ...state, balance: state.balance + event.data.delta };
    default:
      return state;
  }
};

const decide = (command: AdmissionCommand, state: AdmissionState): AdmissionEvent[] => {
  if (!state.open) throw new AppError('not_found', 'account not found');
  const { auditId } = command.data;
  switch (command.type) {
    case 'AdmitAudit':
      if (state.inFlight.has(auditId)) return [];
      if (!state.unlimited && state.balance < 1) throw new AppError('insufficient_credits', 'Insufficient credits');
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

/** Folds the account stream (ledger events too) from its snapshot; decides only admission events. */
export const admissionDecider: Decider<AdmissionCommand, AdmissionEvent | AccountEvent, AdmissionState> = {
  decide,
  evolve,
  initialState,
  snapshot: {
    name: 'admission',
    version: 1,
    toJson: (s) => ({ open: s.open, unlimited: s.unlimited, balance: s.balance, inFlight: [...s.inFlight] }),
    fromJson: (json) => {
      const j = json as { open: boolean; unlimited: boolean; balance: number; inFlight: string[] };
      return { open: j.open, unlimited: j.unlimited, balance: j.balance, inFlight: new Set(j.inFlight) };
    },
  },
};
