import type { ApiKeyScope } from '../../events/account/index.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { openPersonal } from '../../infra/secrets/personalData.ts';
import { openWebhookSecret } from '../../infra/secrets/webhookSecrets.ts';

export interface ApiKeyOwner {
  keyId: string;
  accountId: string;
  scopes: ApiKeyScope[];
  revoked: boolean;
  /** The address, or "[erased]" once the account was forgotten. */
  email: string;
  role: string;
  /** Null only for an account whose secret was never moved out of the log (`secrets migrate`). */
  webhookSecret: string | null;
}

/** The key with this SHA-256 and the account that owns it, or null when no key has it. */
export async function findApiKeyByHash(db: Queryable, keyHash: string): Promise<ApiKeyOwner | null> {
  return (await findApiKeysByHash(db, [keyHash]))[0]!;
}

/** The same for several keys in one statement, answered in their order. */
export async function findApiKeysByHash(db: Queryable, keyHashes: readonly string[]): Promise<(ApiKeyOwner | null)[]> {
  const r = await db.query<{
    key_hash: string;
    key_id: string;
    account_id: string;
    scopes: ApiKeyScope[];
    revoked: boolean;
    email_sealed: string | null;
    data_key: string | null;
    role: string;
    secret_sealed: string | null;
  }>({
    name: 'find_api_keys',
    text: `SELECT k.key_hash, k.key_id, k.account_id, k.scopes, k.revoked, a.email_sealed, dk.wrapped AS data_key, a.role,
                  s.sealed AS secret_sealed
             FROM api_keys k JOIN accounts a ON a.account_id = k.account_id
             LEFT JOIN account_data_keys dk ON dk.account_id = k.account_id
             LEFT JOIN account_secrets s ON s.account_id = k.account_id
            WHERE k.key_hash = ANY($1::text[])`,
    values: [keyHashes],
  });
  const byHash = new Map(r.rows.map((row) => [row.key_hash, row]));
  return keyHashes.map((hash) => {
    const row = byHash.get(hash);
    if (!row) return null;
    return {
      keyId: row.key_id,
      accountId: row.account_id,
      scopes: row.scopes,
      revoked: row.revoked,
      email: openPersonal(row.data_key, row.email_sealed, row.account_id),
      role: row.role,
      webhookSecret: openWebhookSecret(row.secret_sealed, row.account_id),
    };
  });
}

/** The account that owns a key, for the operator CLI (`keys revoke --key`). */
export async function accountOfKey(db: Queryable, keyId: string): Promise<string | null> {
  const r = await db.query<{ account_id: string }>('SELECT account_id FROM api_keys WHERE key_id = $1', [keyId]);
  return r.rows[0]?.account_id ?? null;
}
