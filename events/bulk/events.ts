import { Type } from '@sinclair/typebox';
import { NonEmpty, Nullable } from '../schemaTypes.ts';
import { defineEvent, type EventOf } from '../define.ts';
import { streamIdOf, type StreamId } from '../streamId.ts';

/**
 * The bulk stream (`bulk-<bulkId>`): one batch of up to 100 URLs (spec 4.4), from submission to its
 * end. Each entry's audit is an ordinary audit stream carrying the bulkId; this stream holds only
 * the batch's own decisions: which entry runs, how each ended, and how the batch closed. Times are
 * in the payloads (`at`) because the inactivity rule (spec 3.2) is decided on them.
 */

const Index = Type.Integer({ minimum: 0 });

/** Accepted: the batch's entries after duplicates were removed, each with the ids its job will have. */
export const BulkSubmitted = defineEvent(
  'BulkSubmitted',
  'bulk',
  Type.Object({
    bulkId: NonEmpty,
    project: Nullable(Type.String()),
    webhookUrl: Nullable(Type.String()),
    idempotencyKey: Nullable(Type.String()),
    /** Credits set aside at submission (0 on unlimited accounts); see docs/api-decisions.md. */
    creditsReserved: Type.Integer({ minimum: 0 }),
    entries: Type.Array(
      Type.Object({ url: NonEmpty, keyword: Nullable(Type.String()), auditId: NonEmpty, jobId: NonEmpty }),
    ),
    at: NonEmpty,
  }),
);

/** Keyword data for the whole batch, from one provider call (spec 4.4 rule 4). */
export const BulkKeywordDataFetched = defineEvent(
  'BulkKeywordDataFetched',
  'bulk',
  Type.Object({
    provider: NonEmpty,
    volumes: Type.Array(Type.Object({ keyword: NonEmpty, searchVolume: Nullable(Type.Integer()) })),
    at: NonEmpty,
  }),
);

/** An entry's turn came: its audit (job) was requested. */
export const BulkEntryStarted = defineEvent('BulkEntryStarted', 'bulk', Type.Object({ index: Index, at: NonEmpty }));

/** An entry's audit ended; `charged` tells whether its reserved credit was kept. */
export const BulkEntryFinished = defineEvent(
  'BulkEntryFinished',
  'bulk',
  Type.Object({
    index: Index,
    status: Type.Union([Type.Literal('completed'), Type.Literal('error')]),
    cqs: Nullable(Type.Number()),
    error: Nullable(Type.String()),
    charged: Type.Boolean(),
    at: NonEmpty,
  }),
);

/** Every entry ended. */
export const BulkCompleted = defineEvent('BulkCompleted', 'bulk', Type.Object({ at: NonEmpty }));

/**
 * The batch stopped before its end: cancelled by its owner (POST cancel) or closed after
 * inactivity (spec 3.2). `skipped` entries never started; `stopped` is the entry that was running.
 */
const Closed = Type.Object({
  skipped: Type.Array(Index),
  stopped: Nullable(Index),
  /** Whether the stopped entry's credit was kept (its audit had already been charged). */
  stoppedCharged: Type.Boolean(),
  creditsRefunded: Type.Integer({ minimum: 0 }),
  at: NonEmpty,
});
export const BulkCancelled = defineEvent('BulkCancelled', 'bulk', Closed);
export const BulkTimedOut = defineEvent('BulkTimedOut', 'bulk', Closed);

export type BulkSubmitted = EventOf<typeof BulkSubmitted>;
export type BulkKeywordDataFetched = EventOf<typeof BulkKeywordDataFetched>;
export type BulkEntryStarted = EventOf<typeof BulkEntryStarted>;
export type BulkEntryFinished = EventOf<typeof BulkEntryFinished>;
export type BulkCompleted = EventOf<typeof BulkCompleted>;
export type BulkCancelled = EventOf<typeof BulkCancelled>;
export type BulkTimedOut = EventOf<typeof BulkTimedOut>;
export type BulkEvent =
  | BulkSubmitted
  | BulkKeywordDataFetched
  | BulkEntryStarted
  | BulkEntryFinished
  | BulkCompleted
  | BulkCancelled
  | BulkTimedOut;

export const bulkEvents = [
  BulkSubmitted,
  BulkKeywordDataFetched,
  BulkEntryStarted,
  BulkEntryFinished,
  BulkCompleted,
  BulkCancelled,
  BulkTimedOut,
];
export const bulkStreamId = (bulkId: string): StreamId<'bulk'> => streamIdOf('bulk', bulkId);
