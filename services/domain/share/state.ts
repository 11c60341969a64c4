import { isSecretHash, secretHashOf } from '../../../core/secretHash.ts';
import type { ShareEvent, ShareLang } from '../../../events/share/events.ts';

interface Link {
  /** 1 for the audit's first address, 2 for the one after a revocation, ... */
  issue: number;
  /** `sha256:` of the address's token (the log never holds the token). */
  tokenHash: string;
  lang: ShareLang;
  /** ISO time; null: never expires. */
  expiresAt: string | null;
}

/**
 * Spec 3.3: no link, active, expired, revoked. Revoked keeps the dead link's issue and hash, so a
 * later POST gives a NEW address (the next issue).
 */
export type ShareState =
  | { status: 'None' }
  | (Link & { status: 'Active' })
  | (Link & { status: 'Expired' })
  | { status: 'Revoked'; issue: number; revokedTokenHash: string };

export const initialState = (): ShareState => ({ status: 'None' });

/** How many addresses the audit has had. */
export const issuesOf = (state: ShareState): number => (state.status === 'None' ? 0 : state.issue);

/** An event written before tokens left the log (and not yet migrated) holds the token itself. */
const hashOfIssued = (token: string): string => (isSecretHash(token) ? token : secretHashOf(token));

/** Events that do not fit the state are ignored: replay never throws. */
export const evolve = (state: ShareState, event: ShareEvent): ShareState => {
  switch (event.type) {
    case 'ShareIssued':
      return {
        status: 'Active',
        issue: issuesOf(state) + 1,
        tokenHash: hashOfIssued(event.data.token),
        lang: event.data.lang,
        expiresAt: event.data.expiresAt,
      };
    case 'ShareExpiryChanged':
      return state.status === 'Active' ? { ...state, expiresAt: event.data.expiresAt } : state;
    case 'ShareExpired':
      return state.status === 'Active' ? { ...state, status: 'Expired', expiresAt: event.data.expiresAt } : state;
    case 'ShareReissued':
      return state.status === 'Expired' ? { ...state, status: 'Active', expiresAt: event.data.expiresAt } : state;
    case 'ShareRevoked':
      return state.status === 'Active' || state.status === 'Expired'
        ? { status: 'Revoked', issue: state.issue, revokedTokenHash: state.tokenHash }
        : state;
    default:
      return state;
  }
};

/** The date has passed, whether or not the scheduler's ShareExpired has landed yet. */
export const isPastExpiry = (expiresAt: string | null, now: Date): boolean =>
  expiresAt !== null && Date.parse(expiresAt) <= now.getTime();
