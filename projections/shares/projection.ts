import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import type { ShareEvent } from '../../events/share/events.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { Migration } from '../../infra/postgres/migrate.ts';
import type { Projection } from '../projection.ts';

/**
 * The current link of each audit (spec 3.3). Written inline with every share append
 * (projections/inline.ts), so a revocation holds from its commit on and a POST reads its
 * own link back; the projections role applies the same events again, and the stream version guard
 * makes that a no-op. Only the current token is kept: an old address finds no row and is dead.
 */
export const sharesProjection: Projection = {
  name: 'shares',
  version: 1,
  tables: ['shares'],
  createSql: `
    CREATE TABLE IF NOT EXISTS shares (
      audit_id       text        PRIMARY KEY,
      account_id     text        NOT NULL,
      token          text        NOT NULL UNIQUE,
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
  const auditId = e.streamId.replace(/^share-/, '');
  const ev = domainEventOf<ShareEvent>(e);
  const update = (set: string, params: unknown[]) =>
    tx.query(
      `UPDATE shares SET ${set}, updated_at = $2, stream_version = $3 WHERE audit_id = $1 AND stream_version < $3`,
      [auditId, e.occurredAt, e.streamVersion, ...params],
    );
  switch (ev.type) {
    case 'ShareIssued':
      // A new address replaces a revoked one in the same row: the old token is gone.
      await tx.query(
        `INSERT INTO shares (audit_id, account_id, token, lang, status, expires_at, updated_at, stream_version)
         VALUES ($1, $2, $3, $4, 'active', $5, $6, $7)
         ON CONFLICT (audit_id) DO UPDATE SET token = EXCLUDED.token, lang = EXCLUDED.lang, status = 'active', expires_at = EXCLUDED.expires_at,
           updated_at = EXCLUDED.updated_at, stream_version = EXCLUDED.stream_version
         WHERE shares.stream_version < EXCLUDED.stream_version`,
        [auditId, e.accountId, ev.data.token, ev.data.lang, ev.data.expiresAt, e.occurredAt, e.streamVersion],
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
