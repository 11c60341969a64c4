import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient | pg.Client;

// int8 and numeric arrive as strings by default; bigint columns (positions, offsets) are parsed where used.
export const createPool = (connectionString: string, max = 10): Pool =>
  new pg.Pool({ connectionString, max, idleTimeoutMillis: 10_000, application_name: 'audit-service' });

/**
 * Runs `fn` in one transaction on one client. Every write of the service goes through here, so a
 * step either commits whole or not at all.
 */
export async function withTransaction<T>(pool: Pool, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // pg emits 'error' on a client whose server goes away (a PostgreSQL restart), and a checked-out
  // client has no listener of the pool's: unheard, that error ends the process. The failed query
  // already rejects, which rolls the transaction back; the dead client is then dropped, not reused.
  let broken = false;
  const lost = () => (broken = true);
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(lost);
    throw e;
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
  }
}

export const isUniqueViolation = (e: unknown, constraint?: string): boolean =>
  typeof e === 'object' &&
  e !== null &&
  (e as { code?: string }).code === '23505' &&
  (constraint === undefined || (e as { constraint?: string }).constraint === constraint);

/** Resolves when the server answers a trivial query (readiness, a leader checking its session). */
export const pingDatabase = async (db: Queryable): Promise<void> => {
  await db.query('SELECT 1');
};
