import type { ShareEvent, ShareLang } from '../../../events/share/events.ts';

interface Link {
  token: string;
  lang: ShareLang;
  /** ISO time; null: never expires. */
  expiresAt: string | null;
}

/**
 * Spec 3.3: no link, active, expired, revoked. Revoked keeps the dead token, so a later POST can be
 * checked to give a NEW address.
 */
export type ShareState =
  | { status: 'None' }
  | (Link & { status: 'Active' })
  | (Link & { status: 'Expired' })
  | { status: 'Revoked'; revokedToken: string };

export const initialState = (): ShareState => ({ status: 'None' });

/** Events that do not fit the state are ignored: replay never throws. */
export const evolve = (state: ShareState, event: ShareEvent): ShareState => {
  switch (event.type) {
    case 'ShareIssued':
      return { status: 'Active', token: event.data.token, lang: event.data.lang, expiresAt: event.data.expiresAt };
    case 'ShareExpiryChanged':
      return state.status === 'Active' ? { ...state, expiresAt: event.data.expiresAt } : state;
    case 'ShareExpired':
      return state.status === 'Active' ? { ...state, status: 'Expired', expiresAt: event.data.expiresAt } : state;
    case 'ShareReissued':
      return state.status === 'Expired' ? { ...state, status: 'Active', expiresAt: event.data.expiresAt } : state;
    case 'ShareRevoked':
      return state.status === 'Active' || state.status === 'Expired'
        ? { status: 'Revoked', revokedToken: state.token }
        : state;
    default:
      return state;
  }
};

/** The date has passed, whether or not the scheduler's ShareExpired has landed yet. */
export const isPastExpiry = (expiresAt: string | null, now: Date): boolean =>
  expiresAt !== null && Date.parse(expiresAt) <= now.getTime();
