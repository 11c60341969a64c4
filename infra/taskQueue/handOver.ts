import { transact } from '../eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../postgres/pool.ts';
import { claimTaskById, type Task } from './taskQueue.ts';

/** An idle loop of this process, held for the task a transaction is making due. */
export interface HeldLoop {
  leaseSeconds: number;
  /** After the transaction: the task it claimed, or null (none claimed, or rolled back). */
  give(task: Task | null): void;
}

/** A worker's offer of its idle loops (worker.ts); null when none is idle and unheld. */
export type LoopOffer = () => HeldLoop | null;

// Per pool (one database) and task kind: the workers of this process that can take a task.
const offers = new Map<Pool, Map<string, Set<LoopOffer>>>();

/** Registers a worker's offer; returns the function that withdraws it. */
export function offerLoops(pool: Pool, kind: string, offer: LoopOffer): () => void {
  let kinds = offers.get(pool);
  if (!kinds) offers.set(pool, (kinds = new Map()));
  let set = kinds.get(kind);
  if (!set) kinds.set(kind, (set = new Set()));
  set.add(offer);
  return () => {
    set.delete(offer);
    if (set.size === 0) kinds.delete(kind);
    if (kinds.size === 0) offers.delete(pool);
  };
}

const holdLoop = (pool: Pool, kind: string): HeldLoop | null => {
  for (const offer of offers.get(pool)?.get(kind) ?? []) {
    const held = offer();
    if (held) return held;
  }
  return null;
};

/**
 * transact(), handing the task of `kind` that the transaction makes due to an idle loop of this
 * process: `handOver(tx, subjectId)` claims it inside the transaction, and once it commits that
 * loop runs it at once, without waiting for the commit's notification and claiming (issue 26: a
 * step whose next step runs in the same process hands over directly). The task row, its lease and
 * its attempt are what any claim records, so a crash after the commit leaves it to the lease, as
 * for any worker that dies. Without an idle loop here, or when the transaction fails, the task
 * waits for whichever worker the commit wakes, as before.
 */
export async function transactHandingOver<T>(
  pool: Pool,
  kind: string,
  fn: (tx: PoolClient, handOver: (tx: PoolClient, subjectId: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  const held = holdLoop(pool, kind);
  let claimed: Task | null = null;
  const handOver = async (tx: PoolClient, subjectId: string) => {
    if (held && !claimed) claimed = await claimTaskById(tx, kind, subjectId, held.leaseSeconds);
  };
  try {
    const result = await transact(pool, (tx) => {
      claimed = null; // a retried attempt claims again; the failed one's claim rolled back with it
      return fn(tx, handOver);
    });
    held?.give(claimed);
    return result;
  } catch (e) {
    held?.give(null);
    throw e;
  }
}
