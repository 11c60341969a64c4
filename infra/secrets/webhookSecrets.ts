import { randomBase32 } from '../../core/ids.ts';
import type { Queryable } from '../postgres/pool.ts';
import { keyring } from './keyring.ts';

/**
 * Webhook signing secrets (spec 2.1, 6), kept outside the log, sealed under the master key and
 * bound to their account. The log says only that one was issued: `vault:<secretId>`.
 */
/** Stores the account's secret; a second call (a retry, the migration run twice) keeps the first. */
export async function storeWebhookSecret(db: Queryable, accountId: string, secret: string): Promise<string> {
  const secretId = `whs_${randomBase32()}`;
  const sealed = keyring().seal('webhook-secret', Buffer.from(secret, 'utf8'), accountId);
  const r = await db.query<{ secret_id: string }>(
    `INSERT INTO account_secrets (account_id, secret_id, sealed) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET account_id = EXCLUDED.account_id
     RETURNING secret_id`,
    [accountId, secretId, sealed],
  );
  return `vault:${r.rows[0]!.secret_id}`;
}

/** A sealed secret as read from account_secrets; null when it does not open. */
export const openWebhookSecret = (sealed: string | null, accountId: string): string | null =>
  sealed === null ? null : (keyring().open('webhook-secret', sealed, accountId)?.toString('utf8') ?? null);

export async function webhookSecretOf(db: Queryable, accountId: string): Promise<string | null> {
  const r = await db.query<{ sealed: string }>('SELECT sealed FROM account_secrets WHERE account_id = $1', [accountId]);
  return openWebhookSecret(r.rows[0]?.sealed ?? null, accountId);
}
