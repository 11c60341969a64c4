import type { Migration } from '../postgres/migrate.ts';

/**
 * Rate-limit counters in PostgreSQL, so a limit holds however many API processes share the
 * database: with several, each batch of hits is one atomic upsert of its (key, window, start) rows;
 * a process alone counts in memory and writes its counts here every second (limiter.ts). Rows of
 * past windows are only history; counter.ts and memoryWindows.ts delete them now and then.
 */
export const rateLimitMigration: Migration = {
  id: '0003_rate_limit_counters',
  sql: `
    CREATE TABLE IF NOT EXISTS rate_limit_counters (
      key_id       text        NOT NULL,
      bucket       text        NOT NULL,
      window_start timestamptz NOT NULL,
      hits         integer     NOT NULL,
      PRIMARY KEY (key_id, bucket, window_start)
    );
    CREATE INDEX IF NOT EXISTS rate_limit_counters_window ON rate_limit_counters (window_start);
  `,
};

/**
 * The counters need no durability: a counter lost in a database crash only forgives the requests
 * of one window. UNLOGGED, they write no WAL, so a request's upsert commits without waiting for a
 * disk flush (PostgreSQL commits a transaction that wrote no WAL asynchronously), while every API
 * process still counts in the same row: the limit stays exact.
 */
export const rateLimitUnloggedMigration: Migration = {
  id: '0005_rate_limit_counters_unlogged',
  sql: `ALTER TABLE rate_limit_counters SET UNLOGGED;`,
};
