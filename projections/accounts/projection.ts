import type { AccountOpened, ApiKeyIssued, ApiKeyRevoked } from '../../events/account/index.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import type { Migration } from '../../infra/postgres/migrate.ts';
import { isSealed } from '../../infra/secrets/keyring.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { Projection } from '../projection.ts';

/**
 * Who an account is and its API keys, for authentication and GET /me.
 *
 * An INLINE projection (projections/inline.ts): the event store writes it in the same transaction
 * as the events it folds, so a new key works, and a revoked key stops working, the moment the command commits
 * (spec 5; an asynchronous projection would let a revoked key in until it caught up). It is still a
 * projection of the log: rebuildProjection replays it into fresh tables, which equal the live ones.
 * Its writes are monotone (insert once, revoke once), so replaying an event twice changes nothing.
 * It holds the email as the log does, sealed (opened at read with the account's key, so a
 * forgotten account reads "[erased]" here too), and no webhook secret: that is read from where it is
 * kept (infra/secrets). An AccountOpened still in clear (before `secrets migrate`) leaves the email
 * NULL rather than copy it here; the migration fills it in.
 */
export const accountsProjection: Projection = {
  name: 'accounts',
  version: 1,
  tables: ['accounts', 'api_keys'],
  createSql: `
    CREATE TABLE IF NOT EXISTS accounts (
      account_id     text        PRIMARY KEY,
      email_sealed   text,
      role           text        NOT NULL,
      opened_at      timestamptz NOT NULL
    );
    CREATE TABLE IF NOT EXISTS api_keys (
      key_id     text        PRIMARY KEY,
      account_id text        NOT NULL,
      -- Only the SHA-256 of a key is ever stored (spec 5.2).
      key_hash   text        NOT NULL UNIQUE,
      key_prefix text        NOT NULL,
      scopes     text[]      NOT NULL,
      revoked    boolean     NOT NULL,
      issued_at  timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id);
  `,
  canHandle: ['AccountOpened', 'ApiKeyIssued', 'ApiKeyRevoked'],
  async handle(events: EventEnvelope[], tx: PoolClient): Promise<void> {
    for (const e of events) {
      switch (e.type) {
        case 'AccountOpened': {
          const d = e.payload as AccountOpened['data'];
          await tx.query(
            `INSERT INTO accounts (account_id, email_sealed, role, opened_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (account_id) DO NOTHING`,
            [e.accountId, isSealed(d.email) ? d.email : null, d.role, e.occurredAt],
          );
          break;
        }
        case 'ApiKeyIssued': {
          const d = e.payload as ApiKeyIssued['data'];
          await tx.query(
            `INSERT INTO api_keys (key_id, account_id, key_hash, key_prefix, scopes, revoked, issued_at) VALUES ($1, $2, $3, $4, $5, false, $6)
             ON CONFLICT (key_id) DO NOTHING`,
            [d.keyId, e.accountId, d.keyHash, d.keyPrefix, d.scopes, e.occurredAt],
          );
          break;
        }
        case 'ApiKeyRevoked': {
          const d = e.payload as ApiKeyRevoked['data'];
          await tx.query(
            `UPDATE api_keys SET revoked = true, revoked_at = $3 WHERE key_id = $1 AND account_id = $2 AND NOT revoked`,
            [d.keyId, e.accountId, e.occurredAt],
          );
          // Every API process caches keys (services/api/auth/keyCache.ts); NOTIFY is delivered at
          // commit, so a revocation reaches them all at once and never before it holds.
          await tx.query(`SELECT pg_notify($1, $2)`, [API_KEYS_CHANNEL, d.keyId]);
          break;
        }
        default:
          break;
      }
    }
  },
};

/** The NOTIFY channel of key revocations. */
export const API_KEYS_CHANNEL = 'api_keys_changed';

/**
 * The writers (API, CLI) need these tables whether or not the projections role runs, so they are
 * created with the store's migrations.
 */
export const accountsMigration: Migration = {
  id: '0002_accounts_inline_projection',
  sql: accountsProjection.createSql,
};

/**
 * Tables made before secrets left the log: the clear columns go. Their values are still in the
 * stored AccountOpened events, from which `secrets migrate` moves them out (infra/secrets).
 */
export const accountsSealedMigration: Migration = {
  id: '0014_accounts_without_clear_secrets',
  sql: `ALTER TABLE accounts DROP COLUMN IF EXISTS email, DROP COLUMN IF EXISTS webhook_secret,
          ADD COLUMN IF NOT EXISTS email_sealed text;`,
};
