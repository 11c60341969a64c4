import type { ApiKeyScope } from '../../events/account/index.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';

export interface ApiKeyOwner {
  keyId: string;
  accountId: string;
  scopes: ApiKeyScope[];
  revoked: boolean;
  email: string;
  role: string;
  webhookSecret: string;
}

/** The key with this SHA-256 and the account that owns it, or null when no key has it. */
export async function findApiKeyByHash(db: Queryable, keyHash: string): Promise<ApiKeyOwner | null> {
  const r = await db.query<{
    key_id: string;
    account_id: string;
    scopes: ApiKeyScope[];
    revoked: boolean;
    email: string;
    role: string;
    webhook_secret: string;
  }>(
    `SELECT k.key_id, k.account_id, k.scopes, k.revoked, a.email, a.role, a.webhook_secret
       FROM api_keys k JOIN accounts a ON a.account_id = k.account_id
      WHERE k.key_hash = $1`,
    [keyHash],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    keyId: row.key_id,
    accountId: row.account_id,
    scopes: row.scopes,
    revoked: row.revoked,
    email: row.email,
    role: row.role,
    webhookSecret: row.webhook_secret,
  };
}

/** The account that owns a key, for the operator CLI (`keys revoke --key`). */
export async function accountOfKey(db: Queryable, keyId: string): Promise<string | null> {
  const r = await db.query<{ account_id: string }>('SELECT account_id FROM api_keys WHERE key_id = $1', [keyId]);
  return r.rows[0]?.account_id ?? null;
}
