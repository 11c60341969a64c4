import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * A UUID derived from its parts (SHA-1, version 5 layout): a retried step that derives its event ids
 * from its input reproduces the very same ids, and the store's unique id refuses the second copy.
 */
export const deterministicId = (...parts: string[]): string => {
  const h = createHash('sha1').update(parts.join('\u001f')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export const randomId = (): string => randomUUID();

// Random ids are cut from a pool refilled 4 KiB at a time, as randomUUID does: one call into the
// generator per few hundred ids instead of one each (a submission mints two; under the requests
// bench the calls showed as 4 % of the API process's profile). Secrets do not come from the pool.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** `bytes` random bytes as lower-case hex, for ids the API shows (job_, aud_, bulk_), not secrets. */
export const randomHex = (bytes = 12): string => {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString('hex');
  if (used + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
};

/** `bytes` random bytes as lower-case hex, drawn for this one secret (a webhook's signing secret). */
export const randomSecretHex = (bytes = 32): string => randomBytes(bytes).toString('hex');

/** `bytes` random bytes as URL-safe base64 (secrets: API keys, share and session tokens). */
export const randomBase64Url = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** `bytes` random bytes, base32 lower-case (a-z, 2-7): readable and URL-safe (usr_, key_, pay_ ids). */
export const randomBase32 = (bytes = 16): string => {
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

/**
 * 24 hex characters of SHA-256 over the parts: the id a retry derives again from the same input
 * (an Idempotency-Key's job, audit and batch ids).
 */
export const digestId = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u001f')).digest('hex').slice(0, 24);
