import { ACCOUNT_ROLES, API_KEY_SCOPES, type AccountEvent, type ApiKeyScope } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';
import { SEALED_PATTERN, SECRET_REF_PATTERN } from '../../../events/schemaTypes.ts';
import { admitAudit, admitGeneration, releaseAudit, releaseGeneration } from './admission.ts';
import { closeBulk, openBulk } from './bulk.ts';
import { chargeCredit, refundCharge } from './charges.ts';
import type {
  AccountCommand,
  AdjustCredits,
  ErasePersonalData,
  IssueApiKey,
  OpenAccount,
  PurchaseCredits,
  RevokeApiKey,
  SetUnlimited,
} from './commands.ts';
import { getIn } from './persistentMap.ts';
import type { AccountState, AccountStreamEvent, OpenedAccount } from './state.ts';
import { invalid, required } from './validate.ts';

/**
 * The rules of the account stream, every credit rule among them: the ledger (charges.ts),
 * admission of audits and generations (admission.ts) and a batch's reservation (bulk.ts). Returns the events to append, `[]` when the command was already
 * done (a retry must be safe, so a repeat is never an error), or throws AppError to refuse.
 * Under optimistic concurrency a racing command is decided again on the reloaded state, where it
 * becomes a repeat: that, plus ids derived from what they stand for, is the "at most once".
 */
export const decide = (command: AccountCommand, state: AccountState): AccountStreamEvent[] => {
  if (command.type === 'OpenAccount') return openAccount(command, state);
  if (state.status !== 'Open') throw new AppError('not_found', 'account not found');
  switch (command.type) {
    case 'IssueApiKey':
      return issueApiKey(command, state);
    case 'RevokeApiKey':
      return revokeApiKey(command, state);
    case 'SetUnlimited':
      return setUnlimited(command, state);
    case 'ErasePersonalData':
      return erasePersonalData(command, state);
    case 'PurchaseCredits':
      return purchaseCredits(command, state);
    case 'ChargeCredit':
      return chargeCredit(command, state);
    case 'RefundCharge':
      return refundCharge(command, state);
    case 'AdjustCredits':
      return adjustCredits(command, state);
    case 'AdmitAudit':
      return admitAudit(command.data.auditId, auditSlots(state));
    case 'ReleaseAudit':
      return releaseAudit(command.data.auditId, auditSlots(state));
    case 'AdmitGeneration':
      return admitGeneration(command.data.revisionId, generationSlots(state));
    case 'ReleaseGeneration':
      return releaseGeneration(command.data.revisionId, generationSlots(state));
    case 'OpenBulk':
      return openBulk(command, state);
    case 'CloseBulk':
      return closeBulk(command, state);
    default: {
      const _exhaustive: never = command;
      throw new AppError('internal_error', `unknown command ${(_exhaustive as { type: string }).type}`);
    }
  }
};

const auditSlots = (s: OpenedAccount) => ({ unlimited: s.unlimited, balance: s.balance, inFlight: s.auditsInFlight });
const generationSlots = (s: OpenedAccount) => ({
  unlimited: s.unlimited,
  balance: s.balance,
  inFlight: s.generationsInFlight,
});

const openAccount = ({ data }: OpenAccount, state: AccountState): AccountEvent[] => {
  if (state.status !== 'NotOpened') throw new AppError('invalid_request', 'account already exists');
  required('accountId', data.accountId);
  if (!new RegExp(SECRET_REF_PATTERN).test(data.webhookSecretRef))
    throw invalid('webhookSecretRef must name a secret kept outside the log (vault:...)');
  if (!/^[^\s@]+@[^\s@]+$/.test(data.email)) throw invalid(`email "${data.email}" is not an e-mail address`);
  if (!new RegExp(SEALED_PATTERN).test(data.sealedEmail)) throw invalid('sealedEmail must be sealed (enc:v1:...)');
  if (!ACCOUNT_ROLES.includes(data.role)) throw invalid(`role must be one of ${ACCOUNT_ROLES.join(', ')}`);
  return [
    {
      type: 'AccountOpened',
      data: {
        accountId: data.accountId,
        email: data.sealedEmail,
        role: data.role,
        // Spec 2.8: administrator accounts do not pay. Recorded, so the event reads on its own.
        unlimited: data.unlimited || data.role === 'admin',
        webhookSecret: data.webhookSecretRef,
      },
    },
  ];
};

const issueApiKey = ({ data }: IssueApiKey, state: OpenedAccount): AccountEvent[] => {
  required('keyId', data.keyId);
  required('keyPrefix', data.keyPrefix);
  if (!/^[0-9a-f]{64}$/.test(data.keyHash)) throw invalid('keyHash must be a lower-case hex SHA-256');
  const scopes = normaliseScopes(data.scopes);
  const existing = state.keys[data.keyId];
  if (existing) {
    // A retry of the same issue is a no-op; the same id for another key would hide the new key.
    if (existing.keyHash === data.keyHash && sameScopes(existing.scopes, scopes)) return [];
    throw invalid(`API key ${data.keyId} already exists`);
  }
  if (Object.values(state.keys).some((k) => k.keyHash === data.keyHash))
    throw invalid('an API key with this hash already exists');
  return [
    { type: 'ApiKeyIssued', data: { keyId: data.keyId, keyHash: data.keyHash, keyPrefix: data.keyPrefix, scopes } },
  ];
};

const revokeApiKey = ({ data }: RevokeApiKey, state: OpenedAccount): AccountEvent[] => {
  const key = state.keys[data.keyId];
  if (!key) throw new AppError('not_found', `API key ${data.keyId} not found`);
  if (key.revoked) return [];
  return [{ type: 'ApiKeyRevoked', data: { keyId: data.keyId } }];
};

const setUnlimited = ({ data }: SetUnlimited, state: OpenedAccount): AccountEvent[] => {
  required('actor', data.actor);
  required('reason', data.reason);
  if (!data.unlimited && state.role === 'admin') throw invalid('an administrator account is always unlimited');
  if (state.unlimited === data.unlimited) return [];
  return [{ type: 'UnlimitedSet', data: { unlimited: data.unlimited, actor: data.actor, reason: data.reason } }];
};

const erasePersonalData = ({ data }: ErasePersonalData, state: OpenedAccount): AccountEvent[] => {
  required('actor', data.actor);
  required('reason', data.reason);
  if (state.erased) return [];
  return [{ type: 'PersonalDataErased', data: { actor: data.actor, reason: data.reason } }];
};

const purchaseCredits = ({ data }: PurchaseCredits, state: OpenedAccount): AccountEvent[] => {
  if (!/^pay_.+/.test(data.paymentId)) throw invalid('paymentId must start with pay_');
  if (!Number.isSafeInteger(data.credits) || data.credits < 1) throw invalid('credits must be a positive integer');
  const seen = getIn(state.payments, data.paymentId);
  if (seen !== undefined) {
    if (seen === data.credits) return [];
    throw invalid(`payment ${data.paymentId} was already recorded with ${seen} credits`);
  }
  return [{ type: 'CreditsPurchased', data: { paymentId: data.paymentId, credits: data.credits } }];
};

const adjustCredits = ({ data }: AdjustCredits, state: OpenedAccount): AccountEvent[] => {
  required('adjustmentId', data.adjustmentId);
  required('actor', data.actor);
  required('reason', data.reason);
  if (!Number.isSafeInteger(data.delta) || data.delta === 0) throw invalid('delta must be a non-zero integer');
  const seen = getIn(state.adjustments, data.adjustmentId);
  if (seen !== undefined) {
    if (seen === data.delta) return [];
    throw invalid(`adjustment ${data.adjustmentId} was already recorded with delta ${seen}`);
  }
  if (state.balance + data.delta < 0) {
    throw invalid(`adjustment of ${data.delta} would take the balance of ${state.balance} below zero`);
  }
  return [
    {
      type: 'CreditsAdjusted',
      data: { adjustmentId: data.adjustmentId, delta: data.delta, actor: data.actor, reason: data.reason },
    },
  ];
};

/** A non-empty subset of the two scopes, deduplicated, in the canonical order. */
const normaliseScopes = (scopes: readonly string[]): ApiKeyScope[] => {
  const unknown = scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw invalid(`unknown scope ${unknown.join(', ')}; scopes are ${API_KEY_SCOPES.join(', ')}`);
  if (scopes.length === 0) throw invalid('an API key needs at least one scope');
  return API_KEY_SCOPES.filter((s) => scopes.includes(s));
};

const sameScopes = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((s) => b.includes(s));
