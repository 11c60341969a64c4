import { admissionEvents } from './account/admission.ts';
import { accountEvents } from './account/index.ts';
import { auditEvents } from './audit/events.ts';
import { registerEvents } from './registry.ts';
import { webhookEvents } from './webhook/events.ts';
import { applyAdmissionEvents } from './account/applyAdmission.ts';
import { revisionEvents } from './revision/events.ts';

/** Every event of the service, registered once. Importing this module is enough. */
export const catalogue = [...accountEvents, ...admissionEvents, ...auditEvents, ...webhookEvents, ...applyAdmissionEvents, ...revisionEvents];

registerEvents(...catalogue);
