/**
 * Every follow-up to an event, in one list: what happens because something happened. A reaction
 * only records (events, tasks), idempotently; slow work is a task that the workers of its role
 * lease (infra/taskQueue). How they are run (by the subscription of their group, and `inStep` ones
 * also by the step that appends the event) is infra/reactions.ts; the list is registered at
 * start-up (services/registration.ts), so no step imports this file.
 */
import type { EventEnvelope } from '../events/envelope.ts';
import type { AuditRequested } from '../events/audit/events.ts';
import { loadStream } from '../infra/eventStore/eventStore.ts';
import type { PoolClient } from '../infra/postgres/pool.ts';
import type { Reaction, ReactionContext } from '../infra/reactions.ts';
import { enqueueTasks } from '../infra/taskQueue/taskQueue.ts';
import { requestAdvance } from './bulk/tasks.ts';
import { auditDecider, type AuditState } from './domain/audit/decider.ts';
import { ANALYSE, FETCH } from './pipeline/tasks.ts';
import { issueShareOnCompletion } from './share/issueOnCompletion.ts';
import { recordDeliveries } from './webhooks/deliveryTasks.ts';

const auditIdOf = (e: EventEnvelope): string => e.streamId.replace(/^audit-/, '');
const taskOf = (e: EventEnvelope) => ({ accountId: e.accountId, subjectId: auditIdOf(e) });
const isPageRequest = (e: EventEnvelope): boolean => (e.payload as AuditRequested['data']).contentRef === null;
const auditStateOf = async (tx: PoolClient, e: EventEnvelope, ctx: ReactionContext): Promise<AuditState> =>
  (ctx.states?.get(e.streamId) as AuditState | undefined) ?? (await loadStream(tx, auditDecider, e.streamId)).state;

export const REACTIONS: readonly Reaction[] = [
  {
    // Supplied content is recorded with its request (ContentFetched in the same commit: the audit
    // decider), so only a page has something to fetch.
    name: 'a requested page needs its content: the fetch task',
    on: ['AuditRequested'],
    group: 'pipeline.tasks',
    roles: ['crawler', 'auditor'],
    inStep: true,
    react: (tx, events) => enqueueTasks(tx, FETCH, events.filter(isPageRequest).map(taskOf)),
  },
  {
    name: 'fetched content needs its analysis: the analyse task',
    on: ['ContentFetched'],
    group: 'pipeline.tasks',
    roles: ['crawler', 'auditor'],
    inStep: true,
    react: (tx, events) => enqueueTasks(tx, ANALYSE, events.map(taskOf)),
  },
  {
    // In the completing transaction, so no reader sees the audit completed without its link.
    name: 'an audit submitted with `share: true` gets its public link on completion (spec 4.2)',
    on: ['AuditCompleted'],
    group: 'audit.outcome',
    roles: ['crawler', 'auditor'],
    inStep: true,
    react: async (tx, events, ctx) => {
      for (const e of events)
        await issueShareOnCompletion(tx, {
          accountId: e.accountId,
          auditId: auditIdOf(e),
          state: await auditStateOf(tx, e, ctx),
          completed: e,
          dayMs: ctx.shareDayMs,
          causationId: e.id,
        });
    },
  },
  {
    name: 'an ended audit of a batch gives the batch its turn: the bulk advance task (spec 4.4)',
    on: ['AuditCompleted', 'AuditFailed'],
    group: 'audit.outcome',
    roles: ['crawler', 'auditor'],
    inStep: true,
    react: async (tx, events, ctx) => {
      for (const e of events) {
        const state = await auditStateOf(tx, e, ctx);
        const bulkId = state.status === 'None' ? null : state.request.bulkId;
        if (bulkId) await requestAdvance(tx, e.accountId, bulkId, auditIdOf(e));
      }
    },
  },
  {
    name: 'an ended audit with a webhook URL gets its delivery: WebhookScheduled and the webhook task',
    on: ['AuditCompleted', 'AuditFailed'],
    group: 'webhooks.schedule',
    roles: ['webhooks'],
    inStep: false,
    react: (tx, events) => recordDeliveries(tx, events),
  },
];
