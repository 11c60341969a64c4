import { coalescedReads } from '../../../infra/postgres/coalescedReads.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { findAudits, type AuditRow } from '../../../projections/audits/queries.ts';

export interface AuditReader {
  /** findAudit, coalesced with the concurrent reads of this process into one statement. */
  find(accountId: string, id: string): Promise<AuditRow | null>;
}

/**
 * The poll (GET /audits/{id}) is the most frequent request. Its reads that arrive while earlier
 * statements are in flight (or in the same turn of the event loop) go out as ONE statement
 * (findAudits, infra/postgres/coalescedReads.ts), each answered with its own account's row: an
 * idle process reads at once, a busy one spends a fraction of a round trip per poll.
 */
export function createAuditReader(pool: Pool): AuditReader {
  const read = coalescedReads((lookups: { accountId: string; id: string }[]) => findAudits(pool, lookups));
  return { find: (accountId, id) => read({ accountId, id }) };
}
