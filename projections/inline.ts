import { useInlineProjections, type InlineProjection } from '../infra/eventStore/inlineProjections.ts';
import type { Migration } from '../infra/postgres/migrate.ts';
import { accountsMigration, accountsProjection, accountsSealedMigration } from './accounts/projection.ts';
import { auditsProjection } from './audits/projection.ts';
import { sharesMigration, sharesProjection, sharesTokenHashMigration } from './shares/projection.ts';

/**
 * The read models the event store writes in the append's transaction (infra/eventStore/inlineProjections.ts),
 * so that no command calls a projection:
 * - accounts and keys: a new key works, and a revoked one stops, the moment the command commits;
 * - shares: a revocation holds from its commit, a POST reads its own link back, the public page too;
 * - a job just accepted (AuditRequested only): GET right after POST finds it; the rest of the audit
 *   stream arrives through the projections role, and the stream version guard makes the second
 *   application of AuditRequested a no-op.
 */
export const inlineProjections: readonly InlineProjection[] = [
  accountsProjection,
  sharesProjection,
  {
    name: 'audits.requested',
    canHandle: ['AuditRequested'],
    handle: (events, tx) => auditsProjection.handle(events, tx),
  },
];

useInlineProjections(inlineProjections);

/**
 * Inline tables are written by any role, so they are created with the store, not by the projections
 * role. The audits table is also the asynchronous projection's; its DDL is idempotent, so whichever
 * runs first creates it.
 */
export const inlineProjectionMigrations: readonly Migration[] = [
  accountsMigration,
  accountsSealedMigration,
  sharesMigration,
  sharesTokenHashMigration,
  { id: '0011_audits_table_for_requests_inline', sql: auditsProjection.createSql },
];
