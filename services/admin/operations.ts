import { API_KEY_SCOPES, type ApiKeyScope } from '../../events/account/index.ts';
import { transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { runAccountCommandInTransaction, runAccountCommand } from '../accounts/accountCommand.ts';
import { accountOfKey } from '../../projections/accounts/queries.ts';
import { generateApiKey } from '../api/auth/apiKeys.ts';
import { balanceOf, type AccountCommand } from '../domain/account/decider.ts';
import { AppError } from '../../core/errors.ts';
import { dataKeyFor, sealPersonal } from '../../infra/secrets/personalData.ts';
import { storeWebhookSecret } from '../../infra/secrets/webhookSecrets.ts';
import { newAccountId, newAdjustmentId, newKeyId, newPaymentId, newWebhookSecret } from './ids.ts';

/**
 * What the operator does to accounts, keys and credits ("the app" of the spec). Each operation is
 * one transaction on the account's stream, decided by the account decider; the CLI and the tests
 * call these.
 */

export interface CreatedAccount {
  accountId: string;
  email: string;
  keyId: string;
  apiKey: string;
  scopes: ApiKeyScope[];
  webhookSecret: string;
}

export interface CreateAccountInput {
  email: string;
  credits?: number;
  unlimited?: boolean;
  /** Who grants the starting credits (recorded on their adjustment entry). */
  actor?: string;
  now?: Date;
}

/**
 * Opens an account with a first key holding both scopes (as keys created in the app, spec 5.5) and,
 * when asked, starting credits — an administrator adjustment, since nobody paid for them. One
 * append in one transaction: an account never exists half-made.
 */
export async function createAccount(pool: Pool, input: CreateAccountInput): Promise<CreatedAccount> {
  const accountId = newAccountId();
  const keyId = newKeyId();
  const key = generateApiKey();
  const webhookSecret = newWebhookSecret();
  const scopes = [...API_KEY_SCOPES];
  const now = input.now ?? new Date();
  const credits = input.credits ?? 0;
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new AppError('invalid_request', 'credits must be a whole number, 0 or more');
  const adjustmentId = newAdjustmentId();
  // The secret and the personal-data key are written in the append's transaction: an account never
  // exists without them, and neither outlives a failed append.
  await transact(pool, async (tx) => {
    const webhookSecretRef = await storeWebhookSecret(tx, accountId, webhookSecret);
    const sealedEmail = sealPersonal(await dataKeyFor(tx, accountId), input.email, accountId);
    const commands: AccountCommand[] = [
      {
        type: 'OpenAccount',
        data: {
          accountId,
          email: input.email,
          sealedEmail,
          role: 'user',
          unlimited: input.unlimited ?? false,
          webhookSecretRef,
        },
      },
      { type: 'IssueApiKey', data: { keyId, keyHash: key.keyHash, keyPrefix: key.keyPrefix, scopes } },
    ];
    if (credits > 0) {
      commands.push({
        type: 'AdjustCredits',
        data: {
          adjustmentId,
          delta: credits,
          actor: input.actor ?? 'admin-cli',
          reason: 'starting credits at account creation',
        },
      });
    }
    return runAccountCommandInTransaction(tx, { accountId, now, commands });
  });
  return { accountId, email: input.email, keyId, apiKey: key.apiKey, scopes, webhookSecret };
}

export async function createKey(
  pool: Pool,
  input: { accountId: string; scopes: string[]; now?: Date },
): Promise<{ keyId: string; apiKey: string; scopes: ApiKeyScope[] }> {
  const keyId = newKeyId();
  const key = generateApiKey();
  const { events } = await runAccountCommand(pool, {
    accountId: input.accountId,
    now: input.now ?? new Date(),
    command: {
      type: 'IssueApiKey',
      data: { keyId, keyHash: key.keyHash, keyPrefix: key.keyPrefix, scopes: input.scopes },
    },
  });
  // The decider puts the scopes in their canonical order and removes repeats.
  const issued = events.find((e) => e.type === 'ApiKeyIssued');
  return {
    keyId,
    apiKey: key.apiKey,
    scopes: (issued?.payload as { scopes: ApiKeyScope[] } | undefined)?.scopes ?? [],
  };
}

export async function revokeKey(
  pool: Pool,
  input: { keyId: string; now?: Date },
): Promise<{ keyId: string; accountId: string; revoked: true }> {
  const accountId = await accountOfKey(pool, input.keyId);
  if (!accountId) throw new AppError('not_found', `API key ${input.keyId} not found`);
  await runAccountCommand(pool, {
    accountId,
    now: input.now ?? new Date(),
    command: { type: 'RevokeApiKey', data: { keyId: input.keyId } },
  });
  return { keyId: input.keyId, accountId, revoked: true };
}

export async function purchaseCredits(
  pool: Pool,
  input: { accountId: string; credits: number; paymentId?: string; now?: Date },
): Promise<{ paymentId: string; remaining: number }> {
  const paymentId = input.paymentId ?? newPaymentId();
  const { state } = await runAccountCommand(pool, {
    accountId: input.accountId,
    now: input.now ?? new Date(),
    command: { type: 'PurchaseCredits', data: { paymentId, credits: input.credits } },
  });
  return { paymentId, remaining: balanceOf(state) };
}

export async function adjustCredits(
  pool: Pool,
  input: { accountId: string; delta: number; reason: string; actor: string; adjustmentId?: string; now?: Date },
): Promise<{ adjustmentId: string; remaining: number }> {
  const adjustmentId = input.adjustmentId ?? newAdjustmentId();
  const { state } = await runAccountCommand(pool, {
    accountId: input.accountId,
    now: input.now ?? new Date(),
    command: {
      type: 'AdjustCredits',
      data: { adjustmentId, delta: input.delta, actor: input.actor, reason: input.reason },
    },
  });
  return { adjustmentId, remaining: balanceOf(state) };
}
