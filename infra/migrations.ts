import { hashChainMigration } from './eventStore/hashChain.ts';
import { snapshotsMigration } from './eventStore/snapshots.ts';
import { eventStoreMigration } from './eventStore/schema.ts';
import { contentAndTasksMigration } from './taskQueue/schema.ts';
import type { Migration } from './postgres/migrate.ts';
import { rateLimitMigration, rateLimitUnloggedMigration } from './rateLimit/schema.ts';
import { sessionsMigration } from './sessions/sessions.ts';
import { secretsMigration } from './secrets/schema.ts';
import { wakeOnCommitMigration, wakeWithTypesMigration } from './wakeups/schema.ts';

/**
 * The store's own migrations (events, tasks, rate-limit counters, sessions, the wake-ups on commit); migrate() applies them
 * in id order. Inline projections add theirs (services/migrations.ts); asynchronous projections
 * create their own tables (projections/runner.ts).
 */
export const storeMigrations: readonly Migration[] = [
  eventStoreMigration,
  rateLimitMigration,
  contentAndTasksMigration,
  rateLimitUnloggedMigration,
  sessionsMigration,
  hashChainMigration,
  snapshotsMigration,
  secretsMigration,
  wakeOnCommitMigration,
  wakeWithTypesMigration,
];
