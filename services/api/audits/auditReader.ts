import type { Pool } from '../../../infra/postgres/pool.ts';
import { findAudits, type AuditRow } from '../../../projections/audits/queries.ts';

/** Statements in flight at once; reads arriving meanwhile wait and go out together in the next. */
const MAX_IN_FLIGHT = 2;

export interface AuditReader {
  /** findAudit, coalesced with the concurrent reads of this process into one statement. */
  find(accountId: string, id: string): Promise<AuditRow | null>;
}

/**
 * The poll (GET /audits/{id}) is the most frequent request. Its reads that arrive while earlier
 * statements are in flight (or in the same turn of the event loop) go out as ONE statement
 * (findAudits), each answered with its own account's row: an idle process reads at once, a busy
 * one spends a fraction of a round trip per poll.
 */
export function createAuditReader(pool: Pool): AuditReader {
  let pending: { accountId: string; id: string; resolve(row: AuditRow | null): void; reject(err: unknown): void }[] =
    [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || inFlight >= MAX_IN_FLIGHT || pending.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };

  const flush = async () => {
    if (inFlight >= MAX_IN_FLIGHT || pending.length === 0) return;
    const batch = pending;
    pending = [];
    inFlight++;
    try {
      const rows = await findAudits(pool, batch);
      batch.forEach((b, i) => b.resolve(rows[i] ?? null));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      inFlight--;
    }
    schedule();
  };

  return {
    find(accountId, id) {
      return new Promise((resolve, reject) => {
        pending.push({ accountId, id, resolve, reject });
        schedule();
      });
    },
  };
}
