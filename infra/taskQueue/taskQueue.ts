import type { Queryable } from '../postgres/pool.ts';
import { storableText } from '../postgres/storableText.ts';

export interface Task {
  taskId: string;
  kind: string;
  accountId: string;
  subjectId: string;
  /** 1 for the first claim; a task claimed again after its worker died has a higher attempt. */
  attempt: number;
}

/** What a holder must show to act on a task: the claim it got (the attempt is its fencing token). */
export type Claim = Pick<Task, 'taskId' | 'attempt'>;

/**
 * The task was claimed again after this holder's lease ran out (a paused or cut-off worker waking
 * up): its outcome must not be recorded. Thrown inside the outcome's transaction, it rolls it back.
 */
export class LeaseLostError extends Error {
  constructor(claim: Claim) {
    super(`task ${claim.taskId}: attempt ${claim.attempt} lost its lease to a later claim`);
    this.name = 'LeaseLostError';
  }
}

export const taskIdOf = (kind: string, subjectId: string): string => `${kind}:${subjectId}`;

/** Records a task once; recording it again (a replayed event) changes nothing. */
export async function enqueueTask(db: Queryable, kind: string, accountId: string, subjectId: string): Promise<void> {
  await db.query(
    `INSERT INTO pipeline_tasks (task_id, kind, account_id, subject_id) VALUES ($1, $2, $3, $4) ON CONFLICT (task_id) DO NOTHING`,
    [taskIdOf(kind, subjectId), kind, accountId, subjectId],
  );
}

/** The same for several tasks of one kind, in one statement (a batch of submissions). */
export async function enqueueTasks(
  db: Queryable,
  kind: string,
  tasks: readonly { accountId: string; subjectId: string }[],
): Promise<void> {
  if (tasks.length === 0) return;
  await db.query(
    `INSERT INTO pipeline_tasks (task_id, kind, account_id, subject_id)
     SELECT t.task_id, $1, t.account_id, t.subject_id
       FROM unnest($2::text[], $3::text[], $4::text[]) AS t(task_id, account_id, subject_id)
     ON CONFLICT (task_id) DO NOTHING`,
    [kind, tasks.map((t) => taskIdOf(kind, t.subjectId)), tasks.map((t) => t.accountId), tasks.map((t) => t.subjectId)],
  );
}

/**
 * Records a task that must not be claimed before `dueAt`: the one way to emit an event on time
 * (a share's expiry, a batch's inactivity timeout). Scheduling it again moves the date (and revives a
 * timer that already fired); the handler decides from the stream whether the event is still due, so a
 * moved or cancelled timer that fires anyway changes nothing. Any number of workers may poll it:
 * SKIP LOCKED gives each due task to one of them.
 */
export async function scheduleTask(
  db: Queryable,
  kind: string,
  accountId: string,
  subjectId: string,
  dueAt: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO pipeline_tasks (task_id, kind, account_id, subject_id, lease_until) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (task_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, status = 'pending', attempts = 0, done_at = NULL`,
    [taskIdOf(kind, subjectId), kind, accountId, subjectId, dueAt],
  );
}

/** The error the last claim of a task left, if any. */
export async function lastErrorOf(db: Queryable, taskId: string): Promise<string | null> {
  const r = await db.query<{ last_error: string | null }>('SELECT last_error FROM pipeline_tasks WHERE task_id = $1', [
    taskId,
  ]);
  return r.rows[0]?.last_error ?? null;
}

/** Claims the oldest pending task of a kind whose lease is free or ran out (SKIP LOCKED: workers never wait on each other). */
export async function claimTask(db: Queryable, kind: string, leaseSeconds: number): Promise<Task | null> {
  const r = await db.query<{ task_id: string; kind: string; account_id: string; subject_id: string; attempts: number }>(
    `UPDATE pipeline_tasks SET attempts = attempts + 1, lease_until = now() + make_interval(secs => $2)
      WHERE task_id = (
        SELECT task_id FROM pipeline_tasks
         WHERE status = 'pending' AND kind = $1 AND (lease_until IS NULL OR lease_until < now())
         ORDER BY created_at, task_id
         LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING task_id, kind, account_id, subject_id, attempts`,
    [kind, leaseSeconds],
  );
  const row = r.rows[0];
  return row
    ? {
        taskId: row.task_id,
        kind: row.kind,
        accountId: row.account_id,
        subjectId: row.subject_id,
        attempt: row.attempts,
      }
    : null;
}

/**
 * Claims one named task, in the transaction that has just made it due (handOver.ts): no other
 * worker can have it before that commits. Null when it is not claimable (done, or held).
 */
export async function claimTaskById(
  db: Queryable,
  kind: string,
  subjectId: string,
  leaseSeconds: number,
): Promise<Task | null> {
  const r = await db.query<{ account_id: string; attempts: number }>(
    `UPDATE pipeline_tasks SET attempts = attempts + 1, lease_until = now() + make_interval(secs => $2)
      WHERE task_id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until < now())
      RETURNING account_id, attempts`,
    [taskIdOf(kind, subjectId), leaseSeconds],
  );
  const row = r.rows[0];
  return row
    ? { taskId: taskIdOf(kind, subjectId), kind, accountId: row.account_id, subjectId, attempt: row.attempts }
    : null;
}

/**
 * When the next task of a kind can be claimed (a timer's due time, a lease running out, a retry's
 * pause), or null when none is pending: an idle worker sleeps until then unless woken before.
 */
export async function nextDueAt(db: Queryable, kind: string): Promise<Date | null> {
  const r = await db.query<{ due: Date | null }>(
    `SELECT min(coalesce(lease_until, created_at)) AS due FROM pipeline_tasks WHERE status = 'pending' AND kind = $1`,
    [kind],
  );
  return r.rows[0]?.due ?? null;
}

/** Keeps a long task's lease while its worker is alive; false when a later claim holds it now. */
export async function extendLease(db: Queryable, claim: Claim, leaseSeconds: number): Promise<boolean> {
  const r = await db.query(
    `UPDATE pipeline_tasks SET lease_until = now() + make_interval(secs => $3)
      WHERE task_id = $1 AND attempts = $2 AND status = 'pending'`,
    [claim.taskId, claim.attempt, leaseSeconds],
  );
  return r.rowCount === 1;
}

/**
 * Marks a task done; called in the transaction that appends the task's outcome. Only the latest
 * claim may: a stale holder gets LeaseLostError, which rolls its outcome back. Completing a task
 * the same claim already completed is a no-op (a step may complete early and again at its end).
 */
export async function completeTask(db: Queryable, claim: Claim): Promise<void> {
  const r = await db.query(
    `UPDATE pipeline_tasks SET status = 'done', done_at = coalesce(done_at, now()), lease_until = NULL
      WHERE task_id = $1 AND attempts = $2`,
    [claim.taskId, claim.attempt],
  );
  if (r.rowCount !== 1) throw new LeaseLostError(claim);
}

/** Gives a task back after an error, for the next claim (the attempt counter stays); a stale holder changes nothing. */
export async function releaseTask(db: Queryable, claim: Claim, error: string, retryInSeconds: number): Promise<void> {
  await db.query(
    `UPDATE pipeline_tasks SET lease_until = now() + make_interval(secs => $4), last_error = $3
      WHERE task_id = $1 AND attempts = $2 AND status = 'pending'`,
    [claim.taskId, claim.attempt, storableText(error.slice(0, 2000)), retryInSeconds],
  );
}
