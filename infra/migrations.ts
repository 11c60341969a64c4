import { accountsMigration } from '../projections/accounts/projection.ts';
import { hashChainMigration } from './eventStore/chain.ts';
import { eventStoreMigration } from './eventStore/schema.ts';
import { contentAndTasksMigration } from './taskQueue/schema.ts';
import type { Migration } from './postgres/migrate.ts';
import { rateLimitMigration, rateLimitUnloggedMigration } from './rateLimit/schema.ts';
import { sharesMigration } from '../projections/shares/projection.ts';
import { sessionsMigration } from './sessions/sessions.ts';

/**
 * Every migration of the service, in order. Asynchronous projections create their own tables
 * (projections/runner.ts); the inline accounts projection and the rate-limit counters are written
 * by the API and the CLI in any role, so they come with the store.
 */
export const migrations: readonly Migration[] = [
  eventStoreMigration,
  accountsMigration,
  rateLimitMigration,
  contentAndTasksMigration,
  rateLimitUnloggedMigration,
  sharesMigration,
  sessionsMigration,
  hashChainMigration,
];
