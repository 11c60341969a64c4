import { Type } from '@sinclair/typebox';
import { defineEvent, type EventOf } from '../define.ts';

/**
 * Audits in flight, on the account stream: the three-at-a-time limit (spec 8) is decided from the
 * account's own state in the same transaction as the submission, so two racing submissions cannot
 * both take the third place.
 */
export const AuditAdmitted = defineEvent(
  'AuditAdmitted',
  'account',
  Type.Object({ auditId: Type.String({ minLength: 1 }) }),
);
export const AuditReleased = defineEvent(
  'AuditReleased',
  'account',
  Type.Object({ auditId: Type.String({ minLength: 1 }) }),
);

export type AuditAdmitted = EventOf<typeof AuditAdmitted>;
export type AuditReleased = EventOf<typeof AuditReleased>;
export type AdmissionEvent = AuditAdmitted | AuditReleased;
export const admissionEvents = [AuditAdmitted, AuditReleased];
