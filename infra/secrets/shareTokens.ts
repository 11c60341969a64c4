import { secretHashOf } from '../../core/secretHash.ts';
import { keyring } from './keyring.ts';

/**
 * Share tokens are derived, not drawn: HMAC-SHA256(the master's share-token key,
 * "<shareStreamId>:<issue>"), 24 bytes, base64url (192 bits, 32 characters, as the random ones
 * were). The log holds only `sha256:<hex>` of the token; the service can always rebuild the address
 * from the stream id and the link's issue number, and a new issue (after a revocation) gives a new
 * address. Links issued before derivation have random tokens: `secrets migrate` moved those out of
 * the log into share_legacy_tokens, sealed and bound to their hash.
 */
export const shareTokenFor = (shareStreamId: string, issue: number): string =>
  keyring().mac('share-token', `${shareStreamId}:${issue}`).subarray(0, 24).toString('base64url');

export const sealLegacyToken = (token: string, tokenHash: string): string =>
  keyring().seal('legacy-share-token', Buffer.from(token, 'utf8'), tokenHash);

/**
 * The token of a link: the derived one when it is the one the log names, else the legacy one moved
 * out of the log; null when neither (a link issued before derivation, not yet migrated).
 */
export function linkToken(
  shareStreamId: string,
  issue: number,
  tokenHash: string,
  legacySealed: string | null,
): string | null {
  const derived = shareTokenFor(shareStreamId, issue);
  if (secretHashOf(derived) === tokenHash) return derived;
  return legacySealed === null
    ? null
    : (keyring().open('legacy-share-token', legacySealed, tokenHash)?.toString('utf8') ?? null);
}
