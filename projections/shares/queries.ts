import type { Queryable } from '../../infra/postgres/pool.ts';

export interface ShareRow {
  auditId: string;
  accountId: string;
  token: string;
  lang: 'pl' | 'en';
  status: 'active' | 'expired' | 'revoked';
  expiresAt: Date | null;
}

interface ShareDbRow {
  audit_id: string;
  account_id: string;
  token: string;
  lang: ShareRow['lang'];
  status: ShareRow['status'];
  expires_at: Date | null;
}

const toRow = (r: ShareDbRow): ShareRow => ({
  auditId: r.audit_id,
  accountId: r.account_id,
  token: r.token,
  lang: r.lang,
  status: r.status,
  expiresAt: r.expires_at,
});

/** The audit's link, whatever its state; null when it was never shared. */
export async function findShare(db: Queryable, auditId: string): Promise<ShareRow | null> {
  const r = await db.query<ShareDbRow>(
    'SELECT audit_id, account_id, token, lang, status, expires_at FROM shares WHERE audit_id = $1',
    [auditId],
  );
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/**
 * The audit a public address opens: only an active link whose date has not passed by the
 * database's clock (the scheduler's ShareExpired may still be on its way). Revoked, expired and
 * unknown tokens all give null.
 */
export async function findLiveShare(db: Queryable, token: string): Promise<ShareRow | null> {
  const r = await db.query<ShareDbRow>(
    `SELECT audit_id, account_id, token, lang, status, expires_at FROM shares
      WHERE token = $1 AND status = 'active' AND (expires_at IS NULL OR expires_at > now())`,
    [token],
  );
  return r.rows[0] ? toRow(r.rows[0]) : null;
}
