import { randomBase32, randomSecretHex } from '../../core/ids.ts';

export const newAccountId = (): string => `usr_${randomBase32()}`;
export const newKeyId = (): string => `key_${randomBase32()}`;
export const newPaymentId = (): string => `pay_${randomBase32()}`;
export const newAdjustmentId = (): string => `adj_${randomBase32()}`;
/** Signs webhooks (HMAC-SHA256, spec 6): 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomSecretHex(32)}`;
