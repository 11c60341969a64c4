import { Type } from '@sinclair/typebox';
import { NonEmpty, Sealed, SecretRef } from '../schemaTypes.ts';
import { defineEvent, type EventOf } from '../define.ts';

/**
 * The account stream (`account-<accountId>`): who the account is, its API keys, and every credit
 * movement. The balance is the fold of the four credit events below and nothing else.
 *
 * These payloads are read for ever by data teams and auditors, so:
 * - no time in payloads: `occurredAt` is in the envelope;
 * - no account id except in AccountOpened: the envelope carries `accountId` and `streamId`;
 * - no secret and no personal data in clear: the email is sealed under the account's own key
 *   (erasure destroys it), the webhook secret is kept outside the log and only named, an API key
 *   is stored only as its SHA-256 hash (docs/privacy.md);
 * - amounts are explicit (`credits`) even where the rules make them constant today.
 */

export const ACCOUNT_ROLES = ['user', 'admin'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export const API_KEY_SCOPES = ['audits:read', 'audits:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const CHARGE_KINDS = ['audit', 'apply'] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];

const Role = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
const Scope = Type.Union([Type.Literal('audits:read'), Type.Literal('audits:write')]);
const Kind = Type.Union([Type.Literal('audit'), Type.Literal('apply')]);

/**
 * An account exists. Administrators are always unlimited (spec 2.8: they do not pay). The field
 * names are those of the first schema (a field is never removed or renamed); what they hold is
 * sealed or named, never clear. Events written before that held both in clear; `secrets migrate`
 * rewrote those stored payloads into this form and recorded that it did (docs/privacy.md).
 */
export const AccountOpened = defineEvent(
  'AccountOpened',
  'account',
  Type.Object({
    accountId: NonEmpty,
    /** The e-mail address, sealed under the account's personal-data key (`enc:v1:...`); unreadable once the account is forgotten. */
    email: Sealed,
    role: Role,
    unlimited: Type.Boolean(),
    /** Says that the account's webhook signing secret (spec 2.1, 6) was issued and names it (`vault:whs_...`); the secret itself is kept outside the log. */
    webhookSecret: SecretRef,
  }),
);

/**
 * `accounts forget`: the account's personal-data key was destroyed (crypto-shredding). Every
 * sealed field of the account's events stays in the log, unreadable; the credit history is whole.
 */
export const PersonalDataErased = defineEvent(
  'PersonalDataErased',
  'account',
  Type.Object({ actor: NonEmpty, reason: NonEmpty }),
);

/** A key was created. The key itself is shown once to its owner and never stored (spec 5.2). */
export const ApiKeyIssued = defineEvent(
  'ApiKeyIssued',
  'account',
  Type.Object({
    keyId: NonEmpty,
    /** Lower-case hex SHA-256 of the whole key. */
    keyHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    /** The first characters of the key, for display ("which key is this?"). */
    keyPrefix: NonEmpty,
    scopes: Type.Array(Scope, { minItems: 1 }),
  }),
);

export const ApiKeyRevoked = defineEvent('ApiKeyRevoked', 'account', Type.Object({ keyId: NonEmpty }));

/** An operator made the account unlimited (never charged) or limited again. */
export const UnlimitedSet = defineEvent(
  'UnlimitedSet',
  'account',
  Type.Object({ unlimited: Type.Boolean(), actor: NonEmpty, reason: NonEmpty }),
);

const CreditsPurchasedPayload = Type.Object({
  paymentId: Type.String({ pattern: '^pay_.+' }),
  credits: Type.Integer({ minimum: 1 }),
});

/** Credits bought; `paymentId` (`pay_...`) makes a replayed purchase a no-op. */
export const CreditsPurchased = defineEvent(
  'CreditsPurchased',
  'account',
  CreditsPurchasedPayload,
  // v2: the envelope gained prevHash (the hash chain); the payload is unchanged.
  [{ schema: CreditsPurchasedPayload, upcast: (p: unknown) => p }],
  { movesCredits: true, chainedFrom: 2 },
);

const CreditChargedPayload = Type.Object({
  chargeId: NonEmpty,
  kind: Kind,
  subjectId: NonEmpty,
  credits: Type.Integer({ minimum: 1 }),
  jobId: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  project: Type.Union([Type.String(), Type.Null()]),
});

/**
 * Credits taken for an audit (`subjectId` = `aud_...`) or a new apply generation (`subjectId` =
 * the revision id). `chargeId` is derived from (kind, subjectId), so a subject is charged at most
 * once. `credits` is the amount taken (1 under spec 8); the ledger delta is `-credits`.
 */
export const CreditCharged = defineEvent(
  'CreditCharged',
  'account',
  CreditChargedPayload,
  // v2: the envelope gained prevHash (the hash chain); the payload is unchanged.
  [{ schema: CreditChargedPayload, upcast: (p: unknown) => p }],
  { movesCredits: true, chainedFrom: 2 },
);

const CreditRefundedPayload = Type.Object({
  chargeId: NonEmpty,
  /** Equal to the refunded charge's `credits`; stored so the event reads on its own. */
  credits: Type.Integer({ minimum: 1 }),
  reason: NonEmpty,
});

/** A charge given back in full (failed apply generation, bulk audit that never started, ...). */
export const CreditRefunded = defineEvent(
  'CreditRefunded',
  'account',
  CreditRefundedPayload,
  // v2: the envelope gained prevHash (the hash chain); the payload is unchanged.
  [{ schema: CreditRefundedPayload, upcast: (p: unknown) => p }],
  { movesCredits: true, chainedFrom: 2 },
);

const CreditsAdjustedPayload = Type.Object({
  adjustmentId: NonEmpty,
  /** Non-zero; negative takes credits away, never below a zero balance. */
  delta: Type.Integer(),
  actor: NonEmpty,
  reason: NonEmpty,
});

/** An administrator's correction; unlike the spec's service it leaves a ledger entry (DESIGN.md). */
export const CreditsAdjusted = defineEvent(
  'CreditsAdjusted',
  'account',
  CreditsAdjustedPayload,
  // v2: the envelope gained prevHash (the hash chain); the payload is unchanged.
  [{ schema: CreditsAdjustedPayload, upcast: (p: unknown) => p }],
  { movesCredits: true, chainedFrom: 2 },
);

export type AccountOpened = EventOf<typeof AccountOpened>;
export type ApiKeyIssued = EventOf<typeof ApiKeyIssued>;
export type ApiKeyRevoked = EventOf<typeof ApiKeyRevoked>;
export type UnlimitedSet = EventOf<typeof UnlimitedSet>;
export type PersonalDataErased = EventOf<typeof PersonalDataErased>;
export type CreditsPurchased = EventOf<typeof CreditsPurchased>;
export type CreditCharged = EventOf<typeof CreditCharged>;
export type CreditRefunded = EventOf<typeof CreditRefunded>;
export type CreditsAdjusted = EventOf<typeof CreditsAdjusted>;

export type AccountEvent =
  | AccountOpened
  | ApiKeyIssued
  | ApiKeyRevoked
  | UnlimitedSet
  | PersonalDataErased
  | CreditsPurchased
  | CreditCharged
  | CreditRefunded
  | CreditsAdjusted;
