import { transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { idsFor, requestAudits, submitAudit, type SubmitAuditCommand, type SubmittedAudit } from './submitAudit.ts';

interface Waiting {
  cmd: SubmitAuditCommand;
  resolve: (s: SubmittedAudit) => void;
  reject: (e: unknown) => void;
}

export interface SubmitterOptions {
  /** The most submissions decided in one transaction. */
  maxBatch?: number;
  /** Transactions at work at once; submissions arriving meanwhile wait for the next. */
  maxInFlight?: number;
}

/**
 * Submissions of one API process decided in shared transactions (group commit): while a
 * transaction is at work, the submissions that arrive wait and go together in the next one, so a
 * busy API locks, reads, appends and commits once for many requests, and an idle one at once for
 * each. Every rule holds as for one submission alone (requestAudits decides them in order), and
 * across processes the account locks and the append's version check keep them exact.
 */
export function createAuditSubmitter(
  pool: Pool,
  { maxBatch = 50, maxInFlight = 2 }: SubmitterOptions = {},
): (cmd: SubmitAuditCommand) => Promise<SubmittedAudit> {
  const queue: Waiting[] = [];
  let inFlight = 0;

  const run = async (batch: Waiting[]): Promise<void> => {
    let outcomes;
    try {
      outcomes = await transact(pool, (tx) =>
        requestAudits(
          tx,
          batch.map((w) => w.cmd),
        ),
      );
    } catch (e) {
      if (batch.length === 1) return batch[0]!.reject(e);
      // Not a refusal nor a conflict (those are outcomes, or retried): one submission's failure
      // must not fail its neighbours, so each goes again alone.
      await Promise.all(batch.map((w) => submitAudit(pool, w.cmd).then(w.resolve, w.reject)));
      return;
    }
    outcomes.forEach((o, i) => (o.ok ? batch[i]!.resolve(o.value) : batch[i]!.reject(o.error)));
  };

  const pump = (): void => {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = takeBatch(queue, maxBatch);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  };

  return (cmd) =>
    new Promise<SubmittedAudit>((resolve, reject) => {
      queue.push({ cmd, resolve, reject });
      pump();
    });
}

/**
 * Takes up to `max` submissions in arrival order. Two naming one audit (the same Idempotency-Key)
 * never share a batch: the later one waits for the next, where it finds the first (a replay).
 */
function takeBatch(queue: Waiting[], max: number): Waiting[] {
  const batch: Waiting[] = [];
  const audits = new Set<string>();
  for (let i = 0; i < queue.length && batch.length < max;) {
    const { cmd } = queue[i]!;
    const audit =
      cmd.ids?.auditId ?? (cmd.idempotencyKey ? idsFor(cmd.accountId, cmd.source, cmd.idempotencyKey).auditId : null);
    if (audit !== null && audits.has(audit)) {
      i++;
      continue;
    }
    if (audit !== null) audits.add(audit);
    batch.push(...queue.splice(i, 1));
  }
  return batch;
}
