import type { EventEnvelope } from '../events/envelope.ts';
import type { PoolClient } from '../infra/postgres/pool.ts';

/**
 * A read model: tables folded from events. Its SQL uses unqualified table names, so the same
 * projection can build its live tables (schema public) or a fresh copy in another schema (rebuild).
 * `handle` must depend only on the order of each account's events, which both subscription
 * adapters and a replay of the store preserve.
 */
export interface Projection {
  name: string;
  version: number;
  /** Its tables, for rebuild, compare and drop. */
  tables: readonly string[];
  /** Idempotent DDL (CREATE TABLE IF NOT EXISTS ...), run in the target schema. */
  createSql: string;
  canHandle: readonly string[];
  handle(events: EventEnvelope[], tx: PoolClient): Promise<void>;
}

export const projectionGroupId = (p: Pick<Projection, 'name' | 'version'>): string =>
  `projection.${p.name}.v${p.version}`;
