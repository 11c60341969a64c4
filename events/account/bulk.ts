import { Type } from '@sinclair/typebox';
import { defineEvent, type EventOf } from '../define.ts';

/**
 * The account's running batch, on the account stream: "one bulk request at a time per account"
 * (spec 4.4 rule 5) is decided there, in the same transaction as the batch's credit reservation,
 * so two racing submissions cannot both start a batch.
 */
export const BulkOpened = defineEvent('BulkOpened', 'account', Type.Object({ bulkId: Type.String({ minLength: 1 }) }));
export const BulkClosed = defineEvent('BulkClosed', 'account', Type.Object({ bulkId: Type.String({ minLength: 1 }) }));

export type BulkOpened = EventOf<typeof BulkOpened>;
export type BulkClosed = EventOf<typeof BulkClosed>;
export type AccountBulkEvent = BulkOpened | BulkClosed;
export const accountBulkEvents = [BulkOpened, BulkClosed];
