import { createHash } from 'node:crypto';
import { randomBase64Url } from '../../../core/ids.ts';

/** Recognisable in logs, secret scanners and support tickets: "ask_" = audit service key. */
export const API_KEY_PREFIX = 'ask_';
/** Characters of the key kept for display ("which key is this?"): the prefix and 8 more. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export interface NewApiKey {
  /** The key itself: shown once to its owner, never stored. */
  apiKey: string;
  /** Lower-case hex SHA-256 of the whole key: the only form stored. */
  keyHash: string;
  keyPrefix: string;
}

/** 32 random bytes (256 bits), base64url: `ask_` + 43 characters. */
export function generateApiKey(): NewApiKey {
  const apiKey = `${API_KEY_PREFIX}${randomBase64Url(32)}`;
  return { apiKey, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/**
 * A plain SHA-256 is enough here, unlike for passwords: the key has 256 bits of randomness, so
 * there is nothing to brute-force, and a hash lookup must stay one index probe per request.
 */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');
