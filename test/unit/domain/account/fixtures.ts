import { createHash } from 'node:crypto';
import type { AccountEvent } from '../../../../events/account/index.ts';
import type { AccountCommand } from '../../../../services/domain/account/commands.ts';
import { chargeIdFor } from '../../../../services/domain/account/ledger.ts';

/** Events and commands the account tests share. Not a test file: tap runs only `*.unit.ts` here. */

export const ACCOUNT_ID = 'acc_1';
export const WEBHOOK_SECRET = 'whsec_0123456789abcdef';
export const hashOf = (key: string): string => createHash('sha256').update(key).digest('hex');

export const opened = (over: Partial<{ role: 'user' | 'admin'; unlimited: boolean }> = {}): AccountEvent => ({
  type: 'AccountOpened',
  data: { accountId: ACCOUNT_ID, email: 'owner@example.com', role: 'user', unlimited: false, webhookSecret: WEBHOOK_SECRET, ...over },
});

export const purchased = (credits: number, paymentId = `pay_${credits}`): AccountEvent => ({
  type: 'CreditsPurchased',
  data: { paymentId, credits },
});

export const charged = (subjectId: string, kind: 'audit' | 'apply' = 'audit'): AccountEvent => ({
  type: 'CreditCharged',
  data: { chargeId: chargeIdFor(kind, subjectId), kind, subjectId, credits: 1, jobId: null, url: null, project: null },
});

export const refunded = (subjectId: string, kind: 'audit' | 'apply' = 'audit', reason = 'generation failed'): AccountEvent => ({
  type: 'CreditRefunded',
  data: { chargeId: chargeIdFor(kind, subjectId), credits: 1, reason },
});

export const adjusted = (adjustmentId: string, delta: number): AccountEvent => ({
  type: 'CreditsAdjusted',
  data: { adjustmentId, delta, actor: 'ops@example.com', reason: 'support ticket 42' },
});

export const keyIssued = (keyId: string, key = `sk_live_${keyId}`, scopes: ('audits:read' | 'audits:write')[] = ['audits:read', 'audits:write']): AccountEvent => ({
  type: 'ApiKeyIssued',
  data: { keyId, keyHash: hashOf(key), keyPrefix: key.slice(0, 8), scopes },
});

export const charge = (subjectId: string, kind: 'audit' | 'apply' = 'audit'): AccountCommand => ({
  type: 'ChargeCredit',
  data: { kind, subjectId, jobId: null, url: null, project: null },
});

export const refund = (subjectId: string, kind: 'audit' | 'apply' = 'audit', reason = 'generation failed'): AccountCommand => ({
  type: 'RefundCharge',
  data: { kind, subjectId, reason },
});

export const purchase = (paymentId: string, credits: number): AccountCommand => ({ type: 'PurchaseCredits', data: { paymentId, credits } });

export const adjust = (adjustmentId: string, delta: number, actor = 'ops@example.com', reason = 'support ticket 42'): AccountCommand => ({
  type: 'AdjustCredits',
  data: { adjustmentId, delta, actor, reason },
});
