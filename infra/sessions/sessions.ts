import { createHash } from 'node:crypto';
import { randomBase64Url } from '../../core/ids.ts';
import type { Migration } from '../postgres/migrate.ts';
import { openPersonal } from '../secrets/personalData.ts';
import type { Queryable } from '../postgres/pool.ts';

/**
 * Sessions of the report pages' sign-in (services/api/routes/pages). Not domain events: a session
 * is a login convenience, like a rate-limit counter. Only the SHA-256 of the cookie's value is
 * stored; a session lives as long as the key it was opened with (a revoked key ends it at once).
 */
export const sessionsMigration: Migration = {
  id: '0011_app_sessions',
  sql: `
    CREATE TABLE IF NOT EXISTS app_sessions (
      session_hash text        PRIMARY KEY,
      key_id       text        NOT NULL,
      account_id   text        NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      expires_at   timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS app_sessions_expires ON app_sessions (expires_at);
  `,
};

const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export interface Session {
  accountId: string;
  keyId: string;
  email: string;
}

/** Opens a session for a key; returns the cookie value (256 random bits), shown to nobody else. */
export async function openSession(
  db: Queryable,
  o: { keyId: string; accountId: string; ttlSeconds: number },
): Promise<string> {
  const token = randomBase64Url(32);
  await db.query('DELETE FROM app_sessions WHERE expires_at < now()');
  await db.query(
    `INSERT INTO app_sessions (session_hash, key_id, account_id, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [hash(token), o.keyId, o.accountId, o.ttlSeconds],
  );
  return token;
}

/** The session of a cookie value: unexpired, and its key still valid with audits:read. */
export async function findSession(db: Queryable, token: string): Promise<Session | null> {
  const r = await db.query<{
    account_id: string;
    key_id: string;
    email_sealed: string | null;
    data_key: string | null;
  }>(
    `SELECT s.account_id, s.key_id, a.email_sealed, dk.wrapped AS data_key FROM app_sessions s
       JOIN api_keys k ON k.key_id = s.key_id AND NOT k.revoked AND 'audits:read' = ANY (k.scopes)
       JOIN accounts a ON a.account_id = s.account_id
       LEFT JOIN account_data_keys dk ON dk.account_id = s.account_id
      WHERE s.session_hash = $1 AND s.expires_at > now()`,
    [hash(token)],
  );
  const row = r.rows[0];
  return row
    ? {
        accountId: row.account_id,
        keyId: row.key_id,
        email: openPersonal(row.data_key, row.email_sealed, row.account_id),
      }
    : null;
}

export async function closeSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM app_sessions WHERE session_hash = $1', [hash(token)]);
}
