import type { Test } from 'tap';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { serviceMigrations } from '../../services/migrations.ts';
import { registerService } from '../../services/registration.ts';
import { migrate } from '../../infra/postgres/migrate.ts';
import { createPool, type Pool } from '../../infra/postgres/pool.ts';

export const adminUrl = (): string => {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the suite with `npm test`, which starts PostgreSQL');
  return url;
};

export const withDatabase = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/**
 * A fresh, migrated database of its own for one test file, dropped at the end; the service's
 * catalogue, inline projections and reactions registered in this process, as start-up does.
 */
export async function testDatabase(t: Test, poolSize = 20): Promise<{ url: string; pool: Pool; name: string }> {
  registerService();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl(), name);
  const pool = createPool(url, poolSize);
  pool.on('error', () => undefined); // a killed child's sessions end under us; not the test's concern
  await migrate(pool, serviceMigrations);
  t.teardown(async () => {
    await pool.end().catch(() => undefined);
    const c = new pg.Client({ connectionString: adminUrl() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  return { url, pool, name };
}

/** Polls `check` until it returns true or the time is up (Marten's way: wait for the projection). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
