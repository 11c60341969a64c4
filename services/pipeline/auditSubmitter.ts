import type { Pool } from '../../infra/postgres/pool.ts';
import {
  submitAudits,
  toSubmission,
  type Submission,
  type SubmitAuditCommand,
  type SubmittedAudit,
  type SubmissionOutcome,
} from './submitAudit.ts';

interface Waiting {
  sub: Submission;
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
 * each. Every rule holds as for one submission alone (submitAuditsInTransaction decides them in order), and
 * across processes the account locks and the append's version check keep them exact.
 */
export function createAuditSubmitter(
  pool: Pool,
  { maxBatch = 50, maxInFlight = 2 }: SubmitterOptions = {},
): (cmd: SubmitAuditCommand) => Promise<SubmittedAudit> {
  const queue: Waiting[] = [];
  // The audits of the batches at work: a submission naming one of them (the same Idempotency-Key)
  // waits for that batch to end, then finds its audit (a replay) instead of conflicting with it.
  const busy = new Set<string>();
  let inFlight = 0;

  const run = async (batch: Waiting[]): Promise<void> => {
    let outcomes;
    try {
      outcomes = await submitAudits(
        pool,
        batch.map((w) => w.sub),
      );
    } catch (e) {
      if (batch.length === 1) return batch[0]!.reject(e);
      // Not a refusal nor a conflict (those are outcomes, or retried): one submission's failure
      // must not fail its neighbours, so each goes again alone, one after the other. Their ids are
      // kept, so one whose shared transaction did commit finds its audit and is not made twice.
      for (const w of batch) await submitAudits(pool, [w.sub]).then(([o]) => settle(w, o!), w.reject);
      return;
    }
    outcomes.forEach((o, i) => settle(batch[i]!, o));
  };

  const pump = (): void => {
    while (inFlight < maxInFlight) {
      const batch = takeBatch(queue, maxBatch, busy);
      if (batch.length === 0) return;
      inFlight++;
      for (const w of batch) busy.add(w.sub.auditId);
      void run(batch).finally(() => {
        for (const w of batch) busy.delete(w.sub.auditId);
        inFlight--;
        pump();
      });
    }
  };

  return (cmd) =>
    new Promise<SubmittedAudit>((resolve, reject) => {
      queue.push({ sub: toSubmission(cmd), resolve, reject });
      pump();
    });
}

const settle = (w: Waiting, o: SubmissionOutcome): void => (o.ok ? w.resolve(o.value) : w.reject(o.error));

/**
 * Takes up to `max` submissions in arrival order, leaving those whose audit another submission
 * taken or at work already names: the same Idempotency-Key twice goes one after the other.
 */
function takeBatch(queue: Waiting[], max: number, busy: ReadonlySet<string>): Waiting[] {
  const batch: Waiting[] = [];
  const taken = new Set<string>();
  for (let i = 0; i < queue.length && batch.length < max;) {
    const { auditId } = queue[i]!.sub;
    if (busy.has(auditId) || taken.has(auditId)) {
      i++;
      continue;
    }
    taken.add(auditId);
    batch.push(...queue.splice(i, 1));
  }
  return batch;
}
