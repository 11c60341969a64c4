import type { Migration } from '../postgres/migrate.ts';

/**
 * What is kept outside the log, so that the log (and the topic, and every export) never holds a
 * secret, and personal data in it can be made unreadable for good (docs/privacy.md):
 * - account_secrets: each account's webhook signing secret, sealed under the master key; the log
 *   only says a secret was issued (`vault:<secretId>`);
 * - account_data_keys: each account's personal-data key, sealed under the master key. The log holds
 *   the email sealed under it; `accounts forget` sets `wrapped` to NULL (crypto-shredding);
 * - share_legacy_tokens: links issued before tokens were derived (random, not derivable), moved out
 *   of the log by `secrets migrate`, sealed;
 * - log_rewrites: the trace of that one-time migration: which stored payloads it rewrote, which
 *   fields, and the SHA-256 of each payload before.
 * None of these is a projection: they are not rebuilt from the log, and must be backed up with it.
 */
export const secretsMigration: Migration = {
  id: '0013_secrets_outside_the_log',
  sql: `
    CREATE TABLE IF NOT EXISTS account_secrets (
      account_id text        PRIMARY KEY,
      secret_id  text        NOT NULL UNIQUE,
      sealed     text        NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS account_data_keys (
      account_id   text        PRIMARY KEY,
      wrapped      text,
      created_at   timestamptz NOT NULL DEFAULT now(),
      forgotten_at timestamptz
    );
    CREATE TABLE IF NOT EXISTS share_legacy_tokens (
      token_hash text PRIMARY KEY,
      audit_id   text NOT NULL,
      sealed     text NOT NULL
    );
    CREATE TABLE IF NOT EXISTS log_rewrites (
      event_id        text        PRIMARY KEY,
      stream_id       text        NOT NULL,
      type            text        NOT NULL,
      version         integer     NOT NULL,
      fields          text[]      NOT NULL,
      original_sha256 text        NOT NULL,
      reason          text        NOT NULL,
      rewritten_at    timestamptz NOT NULL DEFAULT now()
    );
    -- The legacy migration looks for these two types only; a small index instead of a scan of the log.
    CREATE INDEX IF NOT EXISTS events_secret_bearing ON events (seq) WHERE type IN ('AccountOpened', 'ShareIssued');
  `,
};
