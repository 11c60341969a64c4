import { storeMigrations } from '../infra/migrations.ts';
import type { Migration } from '../infra/postgres/migrate.ts';
import { inlineProjectionMigrations } from '../projections/inline.ts';

/**
 * Every migration of the service: the store's own tables and the inline projections' tables.
 * Importing this module also registers the inline projections with the event store, so every
 * process that opens the database with it appends with its read models.
 */
export const serviceMigrations: readonly Migration[] = [...storeMigrations, ...inlineProjectionMigrations];
