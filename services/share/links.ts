import { secretHashOf } from '../../core/secretHash.ts';
import { shareStreamId, type ShareLang } from '../../events/share/events.ts';
import { shareTokenFor } from '../../infra/secrets/shareTokens.ts';

/**
 * The hashes of the audit's tokens by issue, for the share decider: 24 bytes derived from the
 * server's key (192 bits, base64url, 32 characters), well above the 128 bits an address needs to
 * be unguessable. Only the hash goes into the log.
 */
export const tokenHashesOf =
  (auditId: string) =>
  (issue: number): string =>
    secretHashOf(shareTokenFor(shareStreamId(auditId), issue));

/** What a share token looks like; anything else is not looked up at all. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** Spec 2.3: `lang=pl` for Polish content, `en` otherwise (German included). */
export const shareLangOf = (language: string | null): ShareLang => (language === 'pl' ? 'pl' : 'en');

/** The public address: PUBLIC_BASE_URL/share/<token>?lang=pl|en. */
export const shareUrlOf = (publicBaseUrl: string, token: string, lang: ShareLang): string =>
  `${publicBaseUrl}/share/${token}?lang=${lang}`;
