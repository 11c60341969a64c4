import { randomBytes } from 'node:crypto';
import { secretHashOf } from '../../core/secretHash.ts';
import { withTransaction, type Pool, type PoolClient } from '../../infra/postgres/pool.ts';
import { dataKeyFor, sealPersonal } from '../../infra/secrets/personalData.ts';
import { sealLegacyToken } from '../../infra/secrets/shareTokens.ts';
import { storeWebhookSecret } from '../../infra/secrets/webhookSecrets.ts';
import { API_KEYS_CHANNEL } from '../../projections/accounts/projection.ts';

/**
 * The one-time migration of events written before secrets left the log (`secrets migrate`; `npm
 * start` runs it too, and it finds nothing to do after the first time). An upcaster cannot do this:
 * it has no key, and it would leave the secret in the stored row. So each such stored payload is
 * rewritten once, in place, and the rewrite is recorded in log_rewrites (event, fields, SHA-256 of
 * the payload before) in the same transaction:
 * - AccountOpened: the webhook secret moves to account_secrets and the event names it
 *   (`vault:whs_...`); the email is sealed under the account's personal-data key (a forgotten
 *   account's under a key thrown away at once);
 * - ShareIssued: the token moves to share_legacy_tokens, sealed, and the event keeps its SHA-256, so
 *   the link keeps working and keeps its address.
 * Neither type moves credits, so no hash chain covers them: `ledger verify` is unaffected. Copies
 * already published to Kafka cannot be rewritten (the topic is append-only and kept forever);
 * docs/privacy.md says what that means.
 */

interface LegacyRow {
  id: string;
  stream_id: string;
  account_id: string;
  type: 'AccountOpened' | 'ShareIssued';
  payload: Record<string, unknown>;
}

const STILL_CLEAR = `type IN ('AccountOpened', 'ShareIssued') AND (
    (type = 'AccountOpened' AND (payload->>'email' NOT LIKE 'enc:v1:%' OR payload->>'webhookSecret' NOT LIKE 'vault:%'))
    OR (type = 'ShareIssued' AND payload->>'token' NOT LIKE 'sha256:%'))`;

const BATCH = 200;

export async function migrateLegacySecrets(pool: Pool): Promise<{ accounts: number; shares: number }> {
  const done = { accounts: 0, shares: 0 };
  let after = 0n;
  for (;;) {
    const page = await pool.query<{ seq: string; id: string }>(
      `SELECT seq::text, id FROM events WHERE ${STILL_CLEAR} AND seq > $1 ORDER BY seq LIMIT ${BATCH}`,
      [after.toString()],
    );
    for (const { seq, id } of page.rows) {
      after = BigInt(seq);
      const type = await withTransaction(pool, (tx) => migrateOne(tx, id));
      if (type === 'AccountOpened') done.accounts++;
      else if (type === 'ShareIssued') done.shares++;
    }
    if (page.rows.length < BATCH) return done;
  }
}

/** One event, locked and checked again: two processes starting at once migrate it once. */
async function migrateOne(tx: PoolClient, id: string): Promise<LegacyRow['type'] | null> {
  const r = await tx.query<LegacyRow>(
    `SELECT id, stream_id, account_id, type, payload FROM events WHERE id = $1 AND ${STILL_CLEAR} FOR UPDATE`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return null;
  const p = row.payload;
  let fields: string[];
  let payload: Record<string, unknown>;
  if (row.type === 'AccountOpened') {
    const accountId = String(p.accountId ?? row.account_id);
    const email = String(p.email);
    const sealedEmail = email.startsWith('enc:v1:')
      ? email
      : sealPersonal(await keyOrShredded(tx, accountId), email, accountId);
    const secret = String(p.webhookSecret);
    const ref = secret.startsWith('vault:') ? secret : await storeWebhookSecret(tx, accountId, secret);
    payload = { ...p, email: sealedEmail, webhookSecret: ref };
    fields = ['email', 'webhookSecret'];
    await tx.query('UPDATE accounts SET email_sealed = $2 WHERE account_id = $1', [accountId, sealedEmail]);
    // API processes cache what they read of the account: read again, from the vault.
    await tx.query(`SELECT pg_notify($1, $2)`, [API_KEYS_CHANNEL, accountId]);
  } else {
    const token = String(p.token);
    const hash = secretHashOf(token);
    await tx.query(
      `INSERT INTO share_legacy_tokens (token_hash, audit_id, sealed) VALUES ($1, $2, $3) ON CONFLICT (token_hash) DO NOTHING`,
      [hash, String(p.auditId), sealLegacyToken(token, hash)],
    );
    payload = { ...p, token: hash };
    fields = ['token'];
  }
  await tx.query(
    `INSERT INTO log_rewrites (event_id, stream_id, type, version, fields, original_sha256, reason)
     SELECT id, stream_id, type, version, $2, encode(sha256(convert_to(payload::text, 'UTF8')), 'hex'), $3
       FROM events WHERE id = $1`,
    [row.id, fields, 'secrets migrate: secrets and personal data moved out of the log (docs/privacy.md)'],
  );
  await tx.query('UPDATE events SET payload = $2 WHERE id = $1', [row.id, JSON.stringify(payload)]);
  return row.type;
}

/** The account's key; for an account already forgotten, a key thrown away at once, so the address is sealed for nobody. */
async function keyOrShredded(tx: PoolClient, accountId: string): Promise<Buffer> {
  const forgotten = await tx.query('SELECT 1 FROM account_data_keys WHERE account_id = $1 AND wrapped IS NULL', [
    accountId,
  ]);
  return forgotten.rowCount ? randomBytes(32) : dataKeyFor(tx, accountId);
}
