import { randomBytes } from 'node:crypto';

/** 16 random bytes, base32-ish lower-case (a-z, 2-7): readable, URL-safe, 26 characters. */
const token = (bytes = 16): string => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of randomBytes(bytes)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
};

export const newAccountId = (): string => `usr_${token()}`;
export const newKeyId = (): string => `key_${token()}`;
export const newPaymentId = (): string => `pay_${token()}`;
export const newAdjustmentId = (): string => `adj_${token()}`;
/** Signs webhooks (HMAC-SHA256, spec 6): 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;
