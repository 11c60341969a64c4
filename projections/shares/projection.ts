import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import { idOf } from '../../events/streamId.ts';
import type { ShareEvent } from '../../events/share/events.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { Migration } from '../../infra/postgres/migrate.ts';
import type { Projection } from '../projection.ts';
import { isSecretHash, secretHashOf } from '../../core/secretHash.ts';

/**
 * The current link of each audit (spec 3.3). Written inline with every share append
 * (projections/inline.ts), so a revocation holds from its commit on and a POST reads its
 * own link back; the projections role applies the same events again, and the stream version guard
 * makes that a no-op. Only the current link is kept: an old address finds no row and is dead. Like
 * the log, it holds the token's hash and the link's issue number, never the token: the address is
 * derived again at read (infra/secrets/shareTokens.ts).
 */
export const sharesProjection: Projection = {
  name: 'shares',
  version: 1,
  tables: ['shares'],
  createSql: `
    CREATE TABLE IF NOT EXISTS shares (
      audit_id       text        PRIMARY KEY,
      account_id     text        NOT NULL,
      token_hash     text        NOT NULL UNIQUE,
      issue          integer     NOT NULL,
      lang           text        NOT NULL,
      -- active, expired or revoked
      status         text        NOT NULL,
      expires_at     timestamptz,
      updated_at     timestamptz NOT NULL,
      stream_version integer     NOT NULL
    );
  `,
  canHandle: ['ShareIssued', 'ShareExpiryChanged', 'ShareExpired', 'ShareReissued', 'ShareRevoked'],
  async handle(events, tx) {
    for (const e of events) await apply(e, tx);
  },
};

async function apply(e: EventEnvelope, tx: PoolClient): Promise<void> {
  const auditId = idOf('share', e.streamId);
  const ev = domainEventOf<ShareEvent>(e);
  const update = (set: string, params: unknown[]) =>
    tx.query(
      `UPDATE shares SET ${set}, updated_at = $2, stream_version = $3 WHERE audit_id = $1 AND stream_version < $3`,
      [auditId, e.occurredAt, e.streamVersion, ...params],
    );
  switch (ev.type) {
    case 'ShareIssued':
      // A new address replaces a revoked one in the same row (the next issue): the old one is gone.
      // An event from before tokens left the log (not yet migrated) holds the token: only its hash comes here.
      await tx.query(
        `INSERT INTO shares (audit_id, account_id, token_hash, issue, lang, status, expires_at, updated_at, stream_version)
         VALUES ($1, $2, $3, 1, $4, 'active', $5, $6, $7)
         ON CONFLICT (audit_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, issue = shares.issue + 1, lang = EXCLUDED.lang,
           status = 'active', expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at, stream_version = EXCLUDED.stream_version
         WHERE shares.stream_version < EXCLUDED.stream_version`,
        [
          auditId,
          e.accountId,
          isSecretHash(ev.data.token) ? ev.data.token : secretHashOf(ev.data.token),
          ev.data.lang,
          ev.data.expiresAt,
          e.occurredAt,
          e.streamVersion,
        ],
      );
      return;
    case 'ShareExpiryChanged':
      await update('expires_at = $4', [ev.data.expiresAt]);
      return;
    case 'ShareExpired':
      await update(`status = 'expired', expires_at = $4`, [ev.data.expiresAt]);
      return;
    case 'ShareReissued':
      await update(`status = 'active', expires_at = $4`, [ev.data.expiresAt]);
      return;
    case 'ShareRevoked':
      await update(`status = 'revoked', expires_at = NULL`, []);
      return;
    default:
      return;
  }
}

/** Inline writers (the API and the auditor) need the table in any role, so it comes with the store. */
export const sharesMigration: Migration = { id: '0010_shares_inline_projection', sql: sharesProjection.createSql };

/**
 * Tables made while tokens were in clear: the token becomes its hash, and each link gets its issue
 * number (its ShareIssued among the stream's), as a rebuild would give. The tokens themselves stay
 * only in the old events, until `secrets migrate` moves them out.
 */
export const sharesTokenHashMigration: Migration = {
  id: '0015_shares_token_hash',
  sql: `
    DO $$ BEGIN
      IF EXISTS (SELECT 1 FROM information_schema.columns
                  WHERE table_schema = current_schema() AND table_name = 'shares' AND column_name = 'token') THEN
        ALTER TABLE shares ADD COLUMN token_hash text, ADD COLUMN issue integer;
        UPDATE shares s SET token_hash = 'sha256:' || encode(sha256(convert_to(s.token, 'UTF8')), 'hex'),
          issue = (SELECT count(*) FROM events e WHERE e.stream_id = 'share-' || s.audit_id
                      AND e.type = 'ShareIssued' AND e.stream_version <= s.stream_version);
        ALTER TABLE shares DROP COLUMN token, ALTER COLUMN token_hash SET NOT NULL, ALTER COLUMN issue SET NOT NULL,
          ADD CONSTRAINT shares_token_hash_key UNIQUE (token_hash);
      END IF;
    END $$;
  `,
};
