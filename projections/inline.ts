import type { InlineProjection } from '../infra/eventStore/inlineProjections.ts';
import type { Migration } from '../infra/postgres/migrate.ts';
import { accountsMigration, accountsProjection, accountsSealedMigration } from './accounts/projection.ts';
import { auditsProjection } from './audits/projection.ts';
import { sharesMigration, sharesProjection, sharesTokenHashMigration } from './shares/projection.ts';

/**
 * The read models the event store writes in the append's transaction (infra/eventStore/inlineProjections.ts),
 * so that no command calls a projection:
 * - accounts and keys: a new key works, and a revoked one stops, the moment the command commits;
 * - shares: a revocation holds from its commit, a POST reads its own link back, the public page too;
 * - a job: GET right after POST finds it, and a step's outcome (running, charged, completed, error)
 *   is read the moment the step commits, without waiting for the log to reach the projections
 *   role (issue 26). That role applies the stream again; the stream version guard makes each second
 *   application a no-op.
 */
export const inlineProjections: readonly InlineProjection[] = [
  accountsProjection,
  sharesProjection,
  {
    name: 'audits',
    canHandle: auditsProjection.canHandle,
    handle: (events, tx) => auditsProjection.handle(events, tx),
  },
];

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
