import { Type } from '@sinclair/typebox';
import { NonEmpty, SecretHash } from '../schemaTypes.ts';
import { defineEvent, type EventOf } from '../define.ts';
import { streamIdOf, type StreamId } from '../streamId.ts';

/**
 * The share stream (`share-<auditId>`): the public link of one completed audit (spec 3.3). A stream
 * of its own, so a share command never races the pipeline's appends to the audit stream. The
 * unguessable part of the address (192 bits) is never in the log: ShareIssued holds its SHA-256,
 * enough to check a presented link, not to open one. `expiresAt` null means the link never expires.
 */

const Lang = Type.Union([Type.Literal('pl'), Type.Literal('en')]);
const ExpiresAt = Type.Union([Type.String({ minLength: 20 }), Type.Null()]);

/** A new address: the first link of the audit, or the one after a revocation (spec 3.3 rows 1, 2, 7). */
export const ShareIssued = defineEvent(
  'ShareIssued',
  'share',
  Type.Object({
    auditId: NonEmpty,
    /** `sha256:<hex>` of the link's token, never the token (derived from the stream and the link's issue number, docs/privacy.md). Events written before held the token; `secrets migrate` rewrote them so. */
    token: SecretHash,
    /** The report's language on the page and in the address (`?lang=`): pl for Polish content, en otherwise. */
    lang: Lang,
    expiresAt: ExpiresAt,
    /** `submission`: `share: true` when the audit completed; `api`: POST /audits/{id}/share. */
    trigger: Type.Union([Type.Literal('submission'), Type.Literal('api')]),
  }),
);

/** A POST on an active link named a new expiry (a date, or null for none) (spec 4.7). */
export const ShareExpiryChanged = defineEvent(
  'ShareExpiryChanged',
  'share',
  Type.Object({ auditId: NonEmpty, expiresAt: ExpiresAt }),
);

/** The expiry date passed: the link stops working; the date is kept (spec 2.3 shareExpiresAt). */
export const ShareExpired = defineEvent(
  'ShareExpired',
  'share',
  Type.Object({ auditId: NonEmpty, expiresAt: Type.String({ minLength: 20 }) }),
);

/** A POST after expiry: the same address works again, without expiry unless one was given (spec 3.3 row 5). */
export const ShareReissued = defineEvent(
  'ShareReissued',
  'share',
  Type.Object({ auditId: NonEmpty, expiresAt: ExpiresAt }),
);

/** DELETE: the address is dead for good; a later POST issues a new one (spec 3.3 rows 6, 7). */
export const ShareRevoked = defineEvent('ShareRevoked', 'share', Type.Object({ auditId: NonEmpty }));

export type ShareIssued = EventOf<typeof ShareIssued>;
export type ShareExpiryChanged = EventOf<typeof ShareExpiryChanged>;
export type ShareExpired = EventOf<typeof ShareExpired>;
export type ShareReissued = EventOf<typeof ShareReissued>;
export type ShareRevoked = EventOf<typeof ShareRevoked>;
export type ShareEvent = ShareIssued | ShareExpiryChanged | ShareExpired | ShareReissued | ShareRevoked;
export type ShareLang = ShareIssued['data']['lang'];

export const shareEvents = [ShareIssued, ShareExpiryChanged, ShareExpired, ShareReissued, ShareRevoked];

/** One share stream per audit, keyed like the audit stream. */
export const shareStreamId = (auditId: string): StreamId<'share'> => streamIdOf('share', auditId);
