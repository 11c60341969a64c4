import { accountStreamId } from '../../events/account/index.ts';
import type { DomainEvent } from '../../core/decider.ts';
import { deterministicId } from '../../core/ids.ts';
import { auditStreamId, type AuditFailed } from '../../events/audit/events.ts';
import { decideInTransaction, transact, type Loaded } from '../../infra/eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import { completeTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { admissionDecider } from '../domain/account/admissionView.ts';
import { auditDecider, type AuditCommand, type AuditState } from '../domain/audit/decider.ts';
import { reactInStep } from '../../infra/reactions.ts';

/**
 * A step's events: caused by the task, correlated by the audit, and with ids derived from the task
 * and the event, so a retried step that reproduces an event reproduces its id too (and the store's
 * unique id refuses a second copy, whatever the deciders say).
 */
export const metaOf = (task: Task) => ({
  now: new Date(),
  causationId: task.taskId,
  correlationId: task.subjectId,
  eventIds: (_i: number, e: DomainEvent) => deterministicId(task.taskId, e.type, JSON.stringify(e.data)),
});

/**
 * One step of an audit, decided on its stream inside the caller's transaction; several commands
 * (steps that commit together) are decided one after the other and appended in one statement.
 * `loaded`: the stream as the step already knows it (Decided.after), instead of reading it again.
 */
export const auditStep = (
  tx: PoolClient,
  task: Task,
  command: AuditCommand | readonly AuditCommand[],
  loaded?: Loaded<AuditState>,
) =>
  decideInTransaction(tx, {
    ...metaOf(task),
    decider: auditDecider,
    streamId: auditStreamId(task.subjectId),
    accountId: task.accountId,
    loaded,
    ...(Array.isArray(command) ? { commands: command } : { command: command as AuditCommand }),
  });

/**
 * A stream as a step knew it before its transaction, for that transaction's first attempt only:
 * a retried attempt (a conflict: the stream moved) reads it afresh.
 */
export const firstAttemptOnly = <S>(loaded: Loaded<S> | undefined): (() => Loaded<S> | undefined) => {
  let once = loaded;
  return () => {
    const l = once;
    once = undefined;
    return l;
  };
};

export type Ending = AuditCommand & { type: 'CompleteAudit' | 'FailAudit' };

/**
 * Ends an audit: its terminal event with its in-step reactions (a share link, the batch's turn:
 * services/reactions.ts), its place among the account's audits in flight given back, and the task
 * done, in the caller's transaction, so none of them can happen without the others.
 */
export async function finishAuditInTransaction(
  tx: PoolClient,
  task: Task,
  outcome: Ending,
  { shareDayMs = 86_400_000, loaded }: { shareDayMs?: number; loaded?: Loaded<AuditState> } = {},
): Promise<void> {
  const { events, state } = await auditStep(tx, task, outcome, loaded);
  await reactInStep(tx, events, { shareDayMs, states: new Map([[auditStreamId(task.subjectId), state]]) });
  await decideInTransaction(tx, {
    ...metaOf(task),
    decider: admissionDecider,
    streamId: accountStreamId(task.accountId),
    accountId: task.accountId,
    command: { type: 'ReleaseAudit', data: { auditId: task.subjectId } },
  });
  await completeTask(tx, task);
}

/** The same in a transaction of its own; `loaded` serves its first attempt (firstAttemptOnly). */
export async function finishAudit(
  pool: Pool,
  task: Task,
  outcome: Ending,
  shareDayMs = 86_400_000,
  loaded?: Loaded<AuditState>,
): Promise<void> {
  const first = firstAttemptOnly(loaded);
  await transact(pool, (tx) => finishAuditInTransaction(tx, task, outcome, { shareDayMs, loaded: first() }));
}

export const failAudit = (
  pool: Pool,
  task: Task,
  errorCode: AuditFailed['data']['errorCode'],
  errorMessage: string,
  stage: AuditFailed['data']['stage'],
) => finishAudit(pool, task, { type: 'FailAudit', data: { errorCode, errorMessage, stage } });

/** errorMessage of internal_error: what happened, for the client; the cause is in the log. */
export const internalErrorMessage = (stage: 'fetch' | 'analyse', attempts: number): string =>
  `The service failed ${attempts} times to ${stage === 'fetch' ? 'fetch the content' : 'analyse the content'} because of an internal error, and gave the audit up${
    stage === 'fetch' ? '; no credit was charged' : ''
  }. Quote the job id when reporting it.`;

/** A task whose audit is gone or already ended has nothing left to do. */
export const dropTask = (pool: Pool, task: Task) => completeTask(pool, task);
