import type { AccountEvent } from '../../../events/account/index.ts';
import {
  ApplyAdmitted,
  ApplyReleased,
  type ApplyAdmissionEvent,
  type ApplyAdmitted as Admitted,
  type ApplyReleased as Released,
} from '../../../events/account/applyAdmission.ts';
import { AppError } from '../../../core/errors.ts';
import { accountDecider, balanceOf, type AccountState } from '../account/decider.ts';
import type { Decider, DomainEvent } from '../../../core/decider.ts';

/**
 * Admission of apply generations, on the account stream in the same transaction as their charge:
 * fewer than three generations in flight (spec 8, counted apart from audits), and a credit unless
 * the account is unlimited (4.11 rule 1: 402). The charge itself is the account decider's
 * ChargeCredit (kind `apply`), whose chargeId derives from the revision id: never charged twice.
 */
export const MAX_GENERATIONS_IN_FLIGHT = 3;
/** About one poll interval of the revision (4.12: every 5-10 seconds). */
export const GENERATION_RETRY_AFTER_SECONDS = 10;

export interface ApplyAdmissionState {
  account: AccountState;
  inFlight: ReadonlySet<string>;
}

export type ApplyAdmissionCommand =
  | { type: 'AdmitGeneration'; data: { revisionId: string } }
  | { type: 'ReleaseGeneration'; data: { revisionId: string } };

const initialState = (): ApplyAdmissionState => ({ account: accountDecider.initialState(), inFlight: new Set() });

const evolve = (
  state: ApplyAdmissionState,
  event: ApplyAdmissionEvent | AccountEvent | { type: string; data: unknown },
): ApplyAdmissionState => {
  switch (event.type) {
    case 'ApplyAdmitted':
      return { ...state, inFlight: new Set(state.inFlight).add((event as Admitted).data.revisionId) };
    case 'ApplyReleased': {
      const inFlight = new Set(state.inFlight);
      inFlight.delete((event as Released).data.revisionId);
      return { ...state, inFlight };
    }
    default:
      return { ...state, account: accountDecider.evolve(state.account, event as AccountEvent) };
  }
};

const decide = (command: ApplyAdmissionCommand, state: ApplyAdmissionState): ApplyAdmissionEvent[] => {
  if (state.account.status !== 'Open') throw new AppError('not_found', 'account not found');
  const { revisionId } = command.data;
  switch (command.type) {
    case 'AdmitGeneration':
      if (state.inFlight.has(revisionId)) return [];
      if (state.inFlight.size >= MAX_GENERATIONS_IN_FLIGHT) {
        throw new AppError(
          'rate_limited',
          `At most ${MAX_GENERATIONS_IN_FLIGHT} apply generations at a time per account; wait for one to finish`,
          {
            retryAfter: GENERATION_RETRY_AFTER_SECONDS,
          },
        );
      }
      if (!state.account.unlimited && balanceOf(state.account) < 1)
        throw new AppError('insufficient_credits', 'Insufficient credits');
      return [ApplyAdmitted({ revisionId })];
    case 'ReleaseGeneration':
      return state.inFlight.has(revisionId) ? [ApplyReleased({ revisionId })] : [];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};

/** Folds the whole account stream; decides only apply admission events. */
export const applyAdmissionDecider: Decider<ApplyAdmissionCommand, DomainEvent, ApplyAdmissionState> = {
  decide,
  evolve,
  initialState,
};
