import type { Pool } from './pool.ts';
import { withTransaction } from './pool.ts';

export interface Migration {
  /** Unique and ordered, e.g. `0001_event_store`. */
  id: string;
  sql: string;
}

const LOCK_KEY = 726_100_001; // any constant: serialises migrations of several processes starting at once

/**
 * Runs idempotent DDL (CREATE ... IF NOT EXISTS) under the migrations' lock: two processes starting
 * at once would otherwise both create the table, and the loser fails on PostgreSQL's catalogue
 * ("duplicate key value violates unique constraint pg_type_typname_nsp_index").
 */
export async function runLockedDdl(pool: Pool, statements: readonly string[]): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    for (const sql of statements) await tx.query(sql);
  });
}

/** Applies the migrations not yet applied, in order, each in its own transaction, under one advisory lock. */
export async function migrate(pool: Pool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
    );
    for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (done.has(m.id)) continue;
      await withTransaction(pool, async (tx) => {
        await tx.query(m.sql);
        await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      });
      applied.push(m.id);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    client.release();
  }
  return applied;
}
