import type { ShareRow } from '../../projections/shares/queries.ts';
import { shareUrlOf } from './links.ts';

/**
 * meta.shareUrl and meta.shareExpiresAt (spec 2.3): both null until a link is requested; the URL
 * while the link works; after expiry the URL is null and the date stays, so expiry can be told
 * apart from never shared. A date that has passed counts as expired even before the scheduler's
 * event lands. After a revocation both are null (there is no link, and no date it stops working).
 */
export function shareMetaOf(
  share: ShareRow | null,
  now: Date,
  publicBaseUrl: string,
): { shareUrl: string | null; shareExpiresAt: string | null } {
  if (!share || share.status === 'revoked') return { shareUrl: null, shareExpiresAt: null };
  const expiresAt = share.expiresAt ? share.expiresAt.toISOString() : null;
  const live = share.status === 'active' && (share.expiresAt === null || share.expiresAt.getTime() > now.getTime());
  return {
    shareUrl: live && share.token !== null ? shareUrlOf(publicBaseUrl, share.token, share.lang) : null,
    shareExpiresAt: expiresAt,
  };
}
