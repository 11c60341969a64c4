/**
 * Reads coalesced into shared statements: the reads that arrive while `maxInFlight` statements are
 * at work (or in the same turn of the event loop) wait and go out together as ONE call of
 * `readMany`, each answered with its own result. An idle process reads at once; a busy one spends a
 * fraction of a round trip per read. `readMany` answers its requests in their order; a failure
 * fails the reads of that statement alone.
 */
export function coalescedReads<Q, R>(
  readMany: (requests: Q[]) => Promise<R[]>,
  maxInFlight = 2,
): (request: Q) => Promise<R> {
  let pending: { request: Q; resolve(result: R): void; reject(err: unknown): void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || inFlight >= maxInFlight || pending.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };

  const flush = async () => {
    if (inFlight >= maxInFlight || pending.length === 0) return;
    const batch = pending;
    pending = [];
    inFlight++;
    try {
      const results = await readMany(batch.map((b) => b.request));
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      inFlight--;
    }
    schedule();
  };

  return (request) =>
    new Promise((resolve, reject) => {
      pending.push({ request, resolve, reject });
      schedule();
    });
}
