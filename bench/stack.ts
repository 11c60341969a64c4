import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startKafka } from '../infra/local/kafka.ts';
import { startPostgres } from '../infra/local/postgres.ts';
import type { Logger } from '../infra/logger.ts';
import { serviceMigrations } from '../services/migrations.ts';
import { migrate } from '../infra/postgres/migrate.ts';
import { createPool, type Pool } from '../infra/postgres/pool.ts';

export interface BenchStack {
  /** A PostgreSQL server with durability on (unlike the test server): DATABASE_URL or started here. */
  serverUrl: string;
  brokers: string | undefined;
  /** A fresh, migrated database on that server, dropped on stop. */
  database(): Promise<{ url: string; pool: Pool }>;
  stop(): Promise<void>;
}

export async function openBenchStack(log: Logger, opts: { kafka: boolean }): Promise<BenchStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    let serverUrl = process.env.DATABASE_URL;
    if (!serverUrl) {
      const dir = await mkdtemp(join(tmpdir(), 'audit-bench-pg-'));
      const server = await startPostgres({ dataDir: join(dir, 'pg'), persistent: true, log });
      serverUrl = server.url;
      stops.push(async () => {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      });
    }
    let brokers = process.env.KAFKA_BROKERS;
    if (opts.kafka && !brokers) {
      const k = await startKafka({ log });
      brokers = k.brokers;
      stops.push(() => k.stop());
    }
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    stops.push(() => admin.end());
    return {
      serverUrl,
      brokers,
      async database() {
        const name = `bench_${randomBytes(4).toString('hex')}`;
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        const pool = createPool(url.toString(), 30);
        pool.on('error', () => undefined); // sessions ended by the final DROP DATABASE
        stops.push(async () => {
          await pool.end();
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        });
        await migrate(pool, serviceMigrations);
        return { url: url.toString(), pool };
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
