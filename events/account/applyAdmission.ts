import { Type } from '@sinclair/typebox';
import { defineEvent, type EventOf } from '../define.ts';

/**
 * Apply generations in flight, on the account stream beside the audits in flight (admission.ts) but
 * counted apart from them (spec 8: at most 3 audits, and separately at most 3 apply generations).
 */
export const ApplyAdmitted = defineEvent(
  'ApplyAdmitted',
  'account',
  Type.Object({ revisionId: Type.String({ minLength: 1 }) }),
);
export const ApplyReleased = defineEvent(
  'ApplyReleased',
  'account',
  Type.Object({ revisionId: Type.String({ minLength: 1 }) }),
);

export type ApplyAdmitted = EventOf<typeof ApplyAdmitted>;
export type ApplyReleased = EventOf<typeof ApplyReleased>;
export type ApplyAdmissionEvent = ApplyAdmitted | ApplyReleased;
export const applyAdmissionEvents = [ApplyAdmitted, ApplyReleased];
