import { admissionEvents } from './account/admission.ts';
import { accountBulkEvents } from './account/bulk.ts';
import { accountEvents } from './account/index.ts';
import { auditEvents } from './audit/events.ts';
import { bulkEvents } from './bulk/events.ts';
import type { StreamName } from './define.ts';
import { shareEvents } from './share/events.ts';
import { webhookEvents } from './webhook/events.ts';
import { applyAdmissionEvents } from './account/applyAdmission.ts';
import { revisionEvents } from './revision/events.ts';

/** Every event of the service; registered at start-up (services/registration.ts). */
export const catalogue = [
  ...accountEvents,
  ...admissionEvents,
  ...auditEvents,
  ...webhookEvents,
  ...shareEvents,
  ...accountBulkEvents,
  ...bulkEvents,
  ...applyAdmissionEvents,
  ...revisionEvents,
];

/** The event types of one stream, as declared: what a projection of that whole stream handles. */
export const typesOfStream = (stream: StreamName): string[] =>
  catalogue.filter((d) => d.stream === stream).map((d) => d.type);

/** The event types that move credits (declared `movesCredits`): the ledger, its replay, its hash chain. */
export const creditMovementTypes: readonly string[] = catalogue.filter((d) => d.movesCredits).map((d) => d.type);
