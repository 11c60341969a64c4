import { storeMigrations } from '../infra/migrations.ts';
import type { Migration } from '../infra/postgres/migrate.ts';
import { inlineProjectionMigrations } from '../projections/inline.ts';

/** Every migration of the service: the store's own tables and the inline projections' tables. */
export const serviceMigrations: readonly Migration[] = [...storeMigrations, ...inlineProjectionMigrations];
