import { START, type LogPosition } from '../events/envelope.ts';
import { readLog } from '../infra/eventStore/readLog.ts';
import { runLockedDdl } from '../infra/postgres/migrate.ts';
import { withTransaction, type Pool } from '../infra/postgres/pool.ts';
import type { Subscriber, Subscription } from '../infra/subscriptions/port.ts';
import { projectionGroupId, type Projection } from './projection.ts';

/** Creates the live tables of each projection (schema public), serialised with other processes' start-up. */
export async function createProjectionTables(pool: Pool, projections: readonly Projection[]): Promise<void> {
  await runLockedDdl(
    pool,
    projections.map((p) => p.createSql),
  );
}

/** Runs each projection as its own consumer group; its rows and its checkpoint commit together. */
export async function startProjections(
  pool: Pool,
  subscriber: Subscriber,
  projections: readonly Projection[],
): Promise<Subscription[]> {
  await createProjectionTables(pool, projections);
  return Promise.all(
    projections.map((p) =>
      subscriber.subscribe({
        groupId: projectionGroupId(p),
        types: p.canHandle,
        handle: (events, tx) => p.handle(events, tx),
      }),
    ),
  );
}

const quoteIdent = (s: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`unsafe identifier ${s}`);
  return `"${s}"`;
};

/**
 * Replays the whole store, in commit order from position zero, into fresh tables in `schema`
 * (dropped first if it exists). Returns the position reached. The live tables are not touched.
 */
export async function rebuildProjection(
  pool: Pool,
  projection: Projection,
  schema: string,
  batchSize = 1000,
): Promise<LogPosition> {
  const s = quoteIdent(schema);
  await pool.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await pool.query(`CREATE SCHEMA ${s}`);
  await withTransaction(pool, async (tx) => {
    await tx.query(`SET LOCAL search_path TO ${s}`);
    await tx.query(projection.createSql);
  });
  let position = START;
  for (;;) {
    const events = await readLog(pool, { after: position, limit: batchSize });
    if (events.length === 0) return position;
    const handled = events.filter((e) => projection.canHandle.includes(e.type));
    if (handled.length) {
      await withTransaction(pool, async (tx) => {
        await tx.query(`SET LOCAL search_path TO ${s}`);
        await projection.handle(handled, tx);
      });
    }
    position = events[events.length - 1]!.position;
  }
}

/** Rows of each of the projection's tables in `schema`, in a stable order, for comparing builds. */
export async function dumpProjection(
  pool: Pool,
  projection: Projection,
  schema: string,
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of projection.tables) {
    const r = await pool.query(`SELECT to_jsonb(t) AS row FROM ${quoteIdent(schema)}.${quoteIdent(table)} t`);
    out[table] = r.rows.map((x) => JSON.stringify(x.row)).sort();
  }
  return out;
}
