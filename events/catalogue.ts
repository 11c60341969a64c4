import { admissionEvents } from './account/admission.ts';
import { accountBulkEvents } from './account/bulk.ts';
import { accountEvents } from './account/index.ts';
import { auditEvents } from './audit/events.ts';
import { bulkEvents } from './bulk/events.ts';
import { registerEvents } from './registry.ts';
import { shareEvents } from './share/events.ts';
import { webhookEvents } from './webhook/events.ts';
import { applyAdmissionEvents } from './account/applyAdmission.ts';
import { revisionEvents } from './revision/events.ts';

/** Every event of the service, registered once. Importing this module is enough. */
export const catalogue = [
  ...accountEvents, ...admissionEvents, ...auditEvents, ...webhookEvents,
  ...shareEvents, ...accountBulkEvents, ...bulkEvents, ...applyAdmissionEvents, ...revisionEvents,
];

registerEvents(...catalogue);
