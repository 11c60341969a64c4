import { accountStreamId } from '../../events/account/index.ts';
import { revisionStreamId } from '../../events/revision/events.ts';
import { decideInTransaction, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { enqueueTask } from '../../infra/taskQueue/taskQueue.ts';
import { accountDecider } from '../domain/account/decider.ts';
import {
  planRequest,
  revisionDecider,
  revisionOf,
  selectionKeyOf,
  type RevisionEntry,
} from '../domain/revision/decider.ts';
import { AppError } from '../../core/errors.ts';
import type { AuditContext } from './auditContext.ts';
import { loadRevisions } from './revisions.ts';

export const GENERATE = 'apply';
export const taskSubject = (auditId: string, revisionId: string): string => `${auditId}/${revisionId}`;

export interface Requested {
  revision: RevisionEntry;
  createdAt: string;
  /** 202 for a new generation; 200 for a cached or in-flight one. */
  fresh: boolean;
  fromCache: boolean;
}

/**
 * POST apply (4.11): the applicable ids of the selection, then in one transaction: the plan on the
 * audit's revision stream (cached / in flight / new), and for a new generation the admission (429
 * above three in flight), the charge (402 without a credit; its id derives from the revision id),
 * the revision's request and charge, and the generation task. Two racing requests for one selection
 * derive the same revision id; the loser of the optimistic check decides again and finds it.
 */
export async function requestGeneration(
  pool: Pool,
  ctx: AuditContext,
  accountId: string,
  selectedIds: readonly string[],
  force: boolean,
  correlationId: string | null,
): Promise<Requested> {
  const byId = new Map(ctx.items.map((p) => [p.item.id, p.item]));
  const applicable = [...new Set(selectedIds)].filter((id) => byId.get(id)?.selectable);
  if (applicable.length === 0)
    throw new AppError(
      'invalid_request',
      'None of selectedIds can be applied: send ids of selectable items from GET /audits/{id}/apply/items',
    );
  const selectionKey = selectionKeyOf(applicable);
  return transact(pool, async (tx) => {
    const { state, createdAt } = await loadRevisions(tx, ctx.auditId);
    const plan = planRequest(state, ctx.auditId, selectionKey, force);
    if (plan.kind !== 'new')
      return {
        revision: plan.revision,
        createdAt: createdAt.get(plan.revision.revisionId)!,
        fresh: false,
        fromCache: plan.kind === 'cached',
      };
    const revisionId = plan.revisionId;
    const meta = { now: new Date(), correlationId, causationId: null };
    const account = { streamId: accountStreamId(accountId), accountId };
    await decideInTransaction(tx, {
      ...meta,
      ...account,
      decider: accountDecider,
      command: { type: 'AdmitGeneration', data: { revisionId } },
    });
    const { events: charged } = await decideInTransaction(tx, {
      ...meta,
      ...account,
      decider: accountDecider,
      command: {
        type: 'ChargeCredit',
        data: {
          kind: 'apply',
          subjectId: revisionId,
          jobId: ctx.row.jobId,
          url: ctx.row.url,
          project: ctx.row.project,
        },
      },
    });
    const charge = charged.find((e) => e.type === 'CreditCharged')?.payload as
      { chargeId: string; credits: number } | undefined;
    const stream = { streamId: revisionStreamId(ctx.auditId), accountId };
    const { events } = await decideInTransaction(tx, {
      ...meta,
      ...stream,
      decider: revisionDecider,
      command: {
        type: 'RequestRevision',
        data: { revisionId, auditId: ctx.auditId, jobId: ctx.row.jobId, selectedIds: applicable, selectionKey, force },
      },
    });
    const { state: next } = await decideInTransaction(tx, {
      ...meta,
      ...stream,
      decider: revisionDecider,
      command: {
        type: 'RecordCharge',
        data: { revisionId, chargeId: charge?.chargeId ?? null, credits: charge?.credits ?? 0 },
      },
    });
    await enqueueTask(tx, GENERATE, accountId, taskSubject(ctx.auditId, revisionId));
    return { revision: revisionOf(next, revisionId)!, createdAt: events[0]!.occurredAt, fresh: true, fromCache: false };
  });
}
