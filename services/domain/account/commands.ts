import type { AccountRole, ChargeKind } from '../../../events/account/index.ts';
import type { Command } from '../../../core/decider.ts';

/**
 * Commands of the account stream. Each carries everything `decide` needs from the outside (ids,
 * hashes, secrets), so `decide` stays pure. No command needs the time: no account event carries
 * one (the envelope's `occurredAt` does). The stream (`account-<accountId>`) is chosen by the
 * caller; only OpenAccount names the account.
 */
/**
 * `email` is the clear address, only to check it; the event gets `sealedEmail`, sealed by the caller
 * under the account's personal-data key, and `webhookSecretRef`, the name of the secret the caller
 * stored outside the log (infra/secrets). So no clear secret or address reaches an event.
 */
export type OpenAccount = Command<
  'OpenAccount',
  {
    accountId: string;
    email: string;
    sealedEmail: string;
    role: AccountRole;
    unlimited: boolean;
    webhookSecretRef: string;
  }
>;

/** `accounts forget`: the caller destroyed the account's personal-data key; the stream records it. */
export type ErasePersonalData = Command<'ErasePersonalData', { actor: string; reason: string }>;

/** `keyHash` is the lower-case hex SHA-256 of the key, computed by the caller that made the key. */
export type IssueApiKey = Command<
  'IssueApiKey',
  { keyId: string; keyHash: string; keyPrefix: string; scopes: readonly string[] }
>;

export type RevokeApiKey = Command<'RevokeApiKey', { keyId: string }>;

export type SetUnlimited = Command<'SetUnlimited', { unlimited: boolean; actor: string; reason: string }>;

export type PurchaseCredits = Command<'PurchaseCredits', { paymentId: string; credits: number }>;

/**
 * Take 1 credit for an audit (`subjectId` = `aud_...`) or a new apply generation (`subjectId` =
 * revision id). There is no chargeId in the command on purpose: it is derived from
 * (kind, subjectId), so no retry, race or restart can charge the same subject under a new id.
 */
export type ChargeCredit = Command<
  'ChargeCredit',
  { kind: ChargeKind; subjectId: string; jobId: string | null; url: string | null; project: string | null }
>;

/** Give back the charge of (kind, subjectId). */
export type RefundCharge = Command<'RefundCharge', { kind: ChargeKind; subjectId: string; reason: string }>;

/** An administrator's correction: non-zero delta, with who and why. */
export type AdjustCredits = Command<
  'AdjustCredits',
  { adjustmentId: string; delta: number; actor: string; reason: string }
>;

/** Admission of an audit (AuditAdmitted) and its release when it ends (admission.ts). */
export type AdmitAudit = Command<'AdmitAudit', { auditId: string }>;
export type ReleaseAudit = Command<'ReleaseAudit', { auditId: string }>;

/** Admission of an apply generation (ApplyAdmitted); its charge is a ChargeCredit of kind `apply`. */
export type AdmitGeneration = Command<'AdmitGeneration', { revisionId: string }>;
export type ReleaseGeneration = Command<'ReleaseGeneration', { revisionId: string }>;

/** A batch opened with one credit reserved (charged) per entry, and closed when it ends (bulk.ts). */
export type OpenBulk = Command<
  'OpenBulk',
  { bulkId: string; entries: readonly { auditId: string; jobId: string; url: string }[]; project: string | null }
>;
export type CloseBulk = Command<'CloseBulk', { bulkId: string }>;

export type AccountCommand =
  | OpenAccount
  | IssueApiKey
  | RevokeApiKey
  | SetUnlimited
  | ErasePersonalData
  | PurchaseCredits
  | ChargeCredit
  | RefundCharge
  | AdjustCredits
  | AdmitAudit
  | ReleaseAudit
  | AdmitGeneration
  | ReleaseGeneration
  | OpenBulk
  | CloseBulk;
