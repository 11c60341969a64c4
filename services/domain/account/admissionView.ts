import type { AdmissionEvent } from '../../../events/account/admission.ts';
import type { AccountEvent } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
import type { Decider } from '../../../core/decider.ts';
import { admitAudit, releaseAudit } from './admission.ts';
import { balanceDelta } from './credits.ts';

/**
 * A compact view of the account decider's state for the submission path: whether the account is
 * open and unlimited, its balance and its audits in flight, and no more. Unlike the full state it
 * does not grow with the account's history (no map of every charge), so it is kept as a snapshot
 * (infra/eventStore/snapshots.ts) and a submission reads the snapshot and the few events after it.
 * It decides AdmitAudit and ReleaseAudit with the account's own rules (admission.ts); it owns none.
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
    case 'AccountOpened':
      return state.open ? state : { ...state, open: true, unlimited: event.data.unlimited };
    case 'UnlimitedSet':
      return { ...state, unlimited: event.data.unlimited };
    default:
      return { ...state, balance: state.balance + balanceDelta(event) };
  }
};

const decide = (command: AdmissionCommand, state: AdmissionState): AdmissionEvent[] => {
  if (!state.open) throw new AppError('not_found', 'account not found');
  switch (command.type) {
    case 'AdmitAudit':
      return admitAudit(command.data.auditId, state);
    case 'ReleaseAudit':
      return releaseAudit(command.data.auditId, state);
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
