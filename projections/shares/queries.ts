import { secretHashOf } from '../../core/secretHash.ts';
import { shareStreamId } from '../../events/share/events.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { linkToken } from '../../infra/secrets/shareTokens.ts';

export interface ShareRow {
  auditId: string;
  accountId: string;
  /** The address's token, derived again (never stored); null for an old link not yet migrated. */
  token: string | null;
  lang: 'pl' | 'en';
  status: 'active' | 'expired' | 'revoked';
  expiresAt: Date | null;
}

interface ShareDbRow {
  audit_id: string;
  account_id: string;
  token_hash: string;
  issue: number;
  legacy_sealed: string | null;
  lang: ShareRow['lang'];
  status: ShareRow['status'];
  expires_at: Date | null;
}

const toRow = (r: ShareDbRow): ShareRow => ({
  auditId: r.audit_id,
  accountId: r.account_id,
  token: linkToken(shareStreamId(r.audit_id), r.issue, r.token_hash, r.legacy_sealed),
  lang: r.lang,
  status: r.status,
  expiresAt: r.expires_at,
});

const SELECT = `SELECT s.audit_id, s.account_id, s.token_hash, s.issue, l.sealed AS legacy_sealed, s.lang, s.status, s.expires_at
  FROM shares s LEFT JOIN share_legacy_tokens l ON l.token_hash = s.token_hash`;

/** The audit's link, whatever its state; null when it was never shared. */
export async function findShare(db: Queryable, auditId: string): Promise<ShareRow | null> {
  const r = await db.query<ShareDbRow>(`${SELECT} WHERE s.audit_id = $1`, [auditId]);
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/**
 * The audit a public address opens: only an active link whose date has not passed by the
 * database's clock (the scheduler's ShareExpired may still be on its way). Revoked, expired and
 * unknown tokens all give null. Looked up by the token's hash, the only form stored.
 */
export async function findLiveShare(db: Queryable, token: string): Promise<ShareRow | null> {
  const r = await db.query<ShareDbRow>(
    `${SELECT} WHERE s.token_hash = $1 AND s.status = 'active' AND (s.expires_at IS NULL OR s.expires_at > now())`,
    [secretHashOf(token)],
  );
  return r.rows[0] ? toRow(r.rows[0]) : null;
}
