import { admissionEvents } from './account/admission.ts';
import { accountEvents } from './account/index.ts';
import { auditEvents } from './audit/events.ts';
import type { StreamName } from './define.ts';
import { registerEvents } from './registry.ts';
import { webhookEvents } from './webhook/events.ts';

/** Every event of the service, registered once. Importing this module is enough. */
export const catalogue = [...accountEvents, ...admissionEvents, ...auditEvents, ...webhookEvents];

registerEvents(...catalogue);

/** The event types of one stream, as declared: what a projection of that whole stream handles. */
export const typesOfStream = (stream: StreamName): string[] => catalogue.filter((d) => d.stream === stream).map((d) => d.type);

/** The event types that move credits (declared `movesCredits`): the ledger, its replay, its hash chain. */
export const creditMovementTypes: readonly string[] = catalogue.filter((d) => d.movesCredits).map((d) => d.type);
