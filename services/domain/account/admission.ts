import { AuditAdmitted, AuditReleased, type AdmissionEvent } from '../../../events/account/admission.ts';
import { ApplyAdmitted, ApplyReleased, type ApplyAdmissionEvent } from '../../../events/account/applyAdmission.ts';
import { AppError } from '../../../core/errors.ts';
import { CREDITS_PER_CHARGE, requireCredits, type CreditView } from './credits.ts';

/**
 * Admission on the account stream: audits and apply generations in flight, each at most three at a
 * time (spec 8, counted apart), and a credit unless unlimited (spec 2.8, 4.11 rule 1). The balance is
 * only checked here; the credit is taken by ChargeCredit (after content and CSI for an audit, spec
 * 3.1; with the admission for a generation). A queued audit will run, so it counts as in flight.
 */
export const MAX_AUDITS_IN_FLIGHT = 3;
/** What a 429 for the concurrency limit tells the client to wait: about one poll interval (spec 4.3). */
export const CONCURRENCY_RETRY_AFTER_SECONDS = 15;
export const MAX_GENERATIONS_IN_FLIGHT = 3;
/** About one poll interval of the revision (4.12: every 5-10 seconds). */
export const GENERATION_RETRY_AFTER_SECONDS = 10;

/** What admitting reads: the credits and the subjects in flight of one kind. */
export interface Slots extends CreditView {
  inFlight: ReadonlySet<string>;
}

export const admitAudit = (auditId: string, slots: Slots): AdmissionEvent[] => {
  if (slots.inFlight.has(auditId)) return [];
  requireCredits(slots, CREDITS_PER_CHARGE);
  if (slots.inFlight.size >= MAX_AUDITS_IN_FLIGHT) {
    throw new AppError(
      'rate_limited',
      `At most ${MAX_AUDITS_IN_FLIGHT} audits at a time per account; wait for one to finish`,
      { retryAfter: CONCURRENCY_RETRY_AFTER_SECONDS },
    );
  }
  return [AuditAdmitted({ auditId })];
};

export const releaseAudit = (auditId: string, slots: Slots): AdmissionEvent[] =>
  slots.inFlight.has(auditId) ? [AuditReleased({ auditId })] : [];

/** The limit before the credit, as the apply route always answered (429 before 402). */
export const admitGeneration = (revisionId: string, slots: Slots): ApplyAdmissionEvent[] => {
  if (slots.inFlight.has(revisionId)) return [];
  if (slots.inFlight.size >= MAX_GENERATIONS_IN_FLIGHT) {
    throw new AppError(
      'rate_limited',
      `At most ${MAX_GENERATIONS_IN_FLIGHT} apply generations at a time per account; wait for one to finish`,
      { retryAfter: GENERATION_RETRY_AFTER_SECONDS },
    );
  }
  requireCredits(slots, CREDITS_PER_CHARGE);
  return [ApplyAdmitted({ revisionId })];
};

export const releaseGeneration = (revisionId: string, slots: Slots): ApplyAdmissionEvent[] =>
  slots.inFlight.has(revisionId) ? [ApplyReleased({ revisionId })] : [];
