import { eventStoreMigration } from './eventStore/schema.ts';
import type { Migration } from './postgres/migrate.ts';

/** Every migration of the service, in order. Projections create their own tables (projections/runner.ts). */
export const migrations: readonly Migration[] = [eventStoreMigration];
