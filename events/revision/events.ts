import { Type, type Static } from '@sinclair/typebox';
import { NonEmpty, Nullable } from '../schemaTypes.ts';
import { defineEvent, type EventOf } from '../define.ts';
import { resultIdOfPositionId } from './positionIds.ts';
import { streamIdOf, type StreamId } from '../streamId.ts';

/**
 * The revision stream (`revision-<auditId>`): every apply generation of one audit (spec 2.6, 3.4).
 * One stream per audit, not per revision, so that "the same selection" (4.11 rule 2) is decided
 * against every earlier revision of the audit under one optimistic-concurrency check. The
 * generated text and its preview are large: they live in the content store, the event carries
 * the SHA-256 reference.
 */

const RevisionRequestedPayload = Type.Object({
  revisionId: NonEmpty,
  auditId: NonEmpty,
  jobId: Nullable(Type.String()),
  selectedIds: Type.Array(NonEmpty),
  selectionKey: NonEmpty,
  force: Type.Boolean(),
});

/**
 * A new generation was asked for; `selectionKey` is the sorted, de-duplicated applicable ids.
 * v2: recommendation ids are the result's own (`rec:1` first); v1 numbered them from `rec:0`
 * and is upcast to the ids it meant, so an old revision is found again by the same selection.
 */
export const RevisionRequested = defineEvent('RevisionRequested', 'revision', RevisionRequestedPayload, [
  {
    schema: RevisionRequestedPayload,
    upcast: (p: Static<typeof RevisionRequestedPayload>) => ({
      ...p,
      selectedIds: p.selectedIds.map(resultIdOfPositionId),
      // The key's form (services/domain/revision selectionKeyOf): the ids, sorted, one a line.
      selectionKey: p.selectionKey.split('\n').map(resultIdOfPositionId).sort().join('\n'),
    }),
  },
]);

/** Its credit was taken on the account stream (chargeId null and credits 0 for an unlimited account). */
export const RevisionCharged = defineEvent(
  'RevisionCharged',
  'revision',
  Type.Object({ revisionId: NonEmpty, chargeId: Nullable(Type.String()), credits: Type.Integer({ minimum: 0 }) }),
);

/** The text is written: the result (2.6 result without editedInPanel) is in the content store. */
export const RevisionGenerated = defineEvent(
  'RevisionGenerated',
  'revision',
  Type.Object({
    revisionId: NonEmpty,
    resultRef: NonEmpty,
    appliedCount: Type.Integer({ minimum: 1 }),
    cqsBefore: Nullable(Type.Number()),
  }),
);

/** The generation failed or applied nothing (3.4); a refund follows. */
export const RevisionFailed = defineEvent(
  'RevisionFailed',
  'revision',
  Type.Object({ revisionId: NonEmpty, error: NonEmpty }),
);

/** The credit of a failed generation was given back (the ledger entry is on the account stream). */
export const RevisionRefunded = defineEvent(
  'RevisionRefunded',
  'revision',
  Type.Object({ revisionId: NonEmpty, credits: Type.Integer({ minimum: 0 }) }),
);

/** The new text re-scored against the audit's SERP baseline (2.6 measurement); never a credit. */
export const RevisionMeasured = defineEvent(
  'RevisionMeasured',
  'revision',
  Type.Object({
    revisionId: NonEmpty,
    status: Type.Union([Type.Literal('completed'), Type.Literal('error')]),
    cqsAfter: Nullable(Type.Number()),
    error: Nullable(Type.String()),
  }),
);

/** The owner edited this version in the app (the operator CLI stands in for it): 2.6 editedInPanel. */
export const RevisionEdited = defineEvent(
  'RevisionEdited',
  'revision',
  Type.Object({ revisionId: NonEmpty, markdownRef: NonEmpty, actor: NonEmpty }),
);

export type RevisionRequested = EventOf<typeof RevisionRequested>;
export type RevisionCharged = EventOf<typeof RevisionCharged>;
export type RevisionGenerated = EventOf<typeof RevisionGenerated>;
export type RevisionFailed = EventOf<typeof RevisionFailed>;
export type RevisionRefunded = EventOf<typeof RevisionRefunded>;
export type RevisionMeasured = EventOf<typeof RevisionMeasured>;
export type RevisionEdited = EventOf<typeof RevisionEdited>;
export type RevisionEvent =
  | RevisionRequested
  | RevisionCharged
  | RevisionGenerated
  | RevisionFailed
  | RevisionRefunded
  | RevisionMeasured
  | RevisionEdited;

export const revisionEvents = [
  RevisionRequested,
  RevisionCharged,
  RevisionGenerated,
  RevisionFailed,
  RevisionRefunded,
  RevisionMeasured,
  RevisionEdited,
];
export const revisionStreamId = (auditId: string): StreamId<'revision'> => streamIdOf('revision', auditId);
