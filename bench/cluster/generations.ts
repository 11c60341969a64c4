import { sleep } from '../../core/sleep.ts';
import type { Submission } from './checker.ts';
import type { Account } from './workload.ts';

interface Item {
  id: string;
  selectable: boolean;
}

/** Every 4th single audit, once completed, gets an apply generation (spec 4.10-4.11). */
export const wantsGeneration = (i: number): boolean => i % 4 === 2;

/**
 * Some of the selectable items, recommendations first (the spec's "chosen recommendation ids"):
 * every other one from an offset the submission's index picks, so selections differ between audits.
 */
export function selectionOf(items: Item[], i: number): string[] {
  const selectable = items.filter((x) => x.selectable).map((x) => x.id);
  const recs = selectable.filter((id) => id.startsWith('rec:'));
  const pool = recs.length > 0 ? recs : selectable;
  const some = pool.filter((_, k) => k % 2 === i % 2);
  return some.length > 0 ? some : pool.slice(0, 1);
}

/**
 * The soak's apply generations, requested while audits are still being submitted and the nemesis
 * works: for each offered audit, wait (polling, across both API processes) until it is completed,
 * read its items, POST apply with a selection, retried through faults. The spec needs no
 * Idempotency-Key here (4.11 rule 2): a retry of the same selection finds the one in flight or
 * finished and is not charged again. A 429 (three generations at a time) restarts the wait.
 */
export function startGenerations(o: { apis: string[]; deadline: number; say: (s: string) => void }) {
  const accepted = new Set<string>();
  const skipped: Record<string, number> = {};
  const answers: Record<string, number> = {};
  const submissions: Submission[] = [];
  const running: Promise<void>[] = [];
  let calls = 0;
  const note = (into: Record<string, number>, what: string) => (into[what] = (into[what] ?? 0) + 1);

  const call = async (account: Account, path: string, body?: unknown) => {
    const res = await fetch(`${o.apis[calls++ % o.apis.length]}/api/v1${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${account.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /** The answer to `path` once `done` holds of it; every other answer (or fault) is noted and retried. */
  const until = async (account: Account, path: string, done: (s: number, b: any) => boolean, body?: unknown) => {
    for (; Date.now() < o.deadline; await sleep(2000)) {
      try {
        const r = await call(account, path, body);
        if (done(r.status, r.body)) return r;
        if (body !== undefined) note(answers, String(r.status)); // a GET polled before its time is no fault
      } catch (e) {
        note(answers, `${body === undefined ? 'GET ' : ''}${(e as Error).name}`);
      }
    }
    return null;
  };

  const generate = async (jobId: string, account: Account, i: number) => {
    const job = await until(
      account,
      `/audits/${jobId}`,
      (s, b) => s === 200 && ['completed', 'error'].includes(b.status),
    );
    if (!job || job.body.status !== 'completed') return void note(skipped, job ? 'audit in error' : 'audit not done');
    const items = await until(account, `/audits/${jobId}/apply/items`, (s) => s === 200);
    const selectedIds = items ? selectionOf(items.body.items as Item[], i) : [];
    if (selectedIds.length === 0) return void note(skipped, items ? 'nothing selectable' : 'items not read');
    const from = Date.now();
    let waitFrom = from;
    const started = await until(
      account,
      `/audits/${jobId}/apply`,
      (s) => {
        if (s === 429) waitFrom = Date.now(); // the spec's limit, not a fault
        return s === 202 || s === 200 || s === 402 || s === 400;
      },
      { selectedIds },
    );
    if (!started || typeof started.body.revisionId !== 'string')
      return void note(skipped, started ? `refused ${started.status}` : 'not accepted in time');
    submissions.push({ from: Math.max(from, waitFrom), to: Date.now(), what: 'generation' });
    accepted.add(started.body.revisionId);
  };

  return {
    offer(jobId: string, account: Account, i: number) {
      if (wantsGeneration(i)) running.push(generate(jobId, account, i));
    },
    async done() {
      await Promise.all(running);
      o.say(`${accepted.size} generations accepted of ${running.length} offered`);
      return { offered: running.length, accepted: [...accepted], skipped, answers, submissions };
    },
  };
}
