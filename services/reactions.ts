/**
 * Every follow-up to an event, in one list: what happens because something happened. A reaction
 * only records (events, tasks), idempotently, in the transaction it is given; slow work is a task
 * that the workers of its role lease (infra/taskQueue). Two ways feed the same reactions:
 *
 * - the subscription of the reaction's group (infra/subscriptions: Kafka or the store), the record:
 *   every event reaches its reactions whatever process appended it, once per group;
 * - the step that appends the event, in the step's own transaction (reactInStep), when the
 *   reaction is marked `inStep`: the next step is due the moment the step commits (its workers are
 *   woken by the commit, infra/wakeups) instead of after a trip through the log and a subscriber.
 *
 * Both may run a reaction for one event; each is idempotent (a task id per step, deciders that
 * record nothing twice), so the second finds the work recorded and adds nothing.
 */
import type { EventEnvelope } from '../events/envelope.ts';
import type { Config, Role } from '../infra/config.ts';
import { loadStream } from '../infra/eventStore/eventStore.ts';
import type { PoolClient } from '../infra/postgres/pool.ts';
import type { Subscriber } from '../infra/subscriptions/port.ts';
import { enqueueTasks } from '../infra/taskQueue/taskQueue.ts';
import { requestAdvance } from './bulk/tasks.ts';
import { auditDecider } from './domain/audit/decider.ts';
import { ANALYSE, FETCH } from './pipeline/feeder.ts';
import { issueShareOnCompletion } from './share/issueOnCompletion.ts';
import { scheduleWebhooks } from './webhooks/scheduler.ts';

export interface ReactionContext {
  /** Length of a share link's day (SHARE_DAY_SECONDS). */
  shareDayMs: number;
}

export interface Reaction {
  /** What it does, for the reader of this list. */
  name: string;
  on: readonly string[];
  /** The consumer group whose subscription feeds it. */
  group: string;
  /** Processes running one of these roles subscribe the group. */
  roles: readonly Role[];
  /** Also run by the step that appends the event, in the step's transaction. */
  inStep: boolean;
  react(tx: PoolClient, events: EventEnvelope[], ctx: ReactionContext): Promise<void>;
}

const auditIdOf = (e: EventEnvelope): string => e.streamId.replace(/^audit-/, '');
const taskOf = (e: EventEnvelope) => ({ accountId: e.accountId, subjectId: auditIdOf(e) });
const auditStateOf = async (tx: PoolClient, e: EventEnvelope) => (await loadStream(tx, auditDecider, e.streamId)).state;

export const REACTIONS: readonly Reaction[] = [
  {
    name: 'a requested audit needs its content: the fetch task',
    on: ['AuditRequested'],
    group: 'pipeline.tasks',
    roles: ['crawler', 'auditor'],
    inStep: true,
    react: (tx, events) => enqueueTasks(tx, FETCH, events.map(taskOf)),
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
          state: await auditStateOf(tx, e),
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
    react: async (tx, events) => {
      for (const e of events) {
        const bulkId = (await auditStateOf(tx, e)).request?.bulkId;
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
    react: (tx, events) => scheduleWebhooks(tx, events),
  },
];

const DEFAULT_CONTEXT: ReactionContext = { shareDayMs: 86_400_000 };

/** Runs the given reactions on the events they react to, in `tx`. */
async function run(
  tx: PoolClient,
  reactions: readonly Reaction[],
  events: readonly EventEnvelope[],
  ctx: ReactionContext,
): Promise<void> {
  for (const r of reactions) {
    const matching = events.filter((e) => r.on.includes(e.type));
    if (matching.length) await r.react(tx, matching, ctx);
  }
}

/** The in-step reactions to events a step has just appended, in the step's transaction. */
export const reactInStep = (
  tx: PoolClient,
  events: readonly EventEnvelope[],
  ctx: ReactionContext = DEFAULT_CONTEXT,
): Promise<void> =>
  run(
    tx,
    REACTIONS.filter((r) => r.inStep),
    events,
    ctx,
  );

/**
 * Subscribes the groups of the reactions of `roles` that this process runs (config.roles); returns
 * the functions that stop them.
 */
export async function startReactions(
  config: Config,
  subscriber: Subscriber,
  roles: readonly Role[],
): Promise<(() => Promise<void>)[]> {
  const ctx: ReactionContext = { shareDayMs: config.share.daySeconds * 1000 };
  const runs = (r: Reaction) => r.roles.some((role) => roles.includes(role) && config.roles.includes(role));
  const groups = new Map<string, Reaction[]>();
  for (const r of REACTIONS.filter(runs)) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const stops: (() => Promise<void>)[] = [];
  for (const [groupId, reactions] of groups) {
    const subscription = await subscriber.subscribe({
      groupId,
      types: [...new Set(reactions.flatMap((r) => r.on))],
      handle: (events, tx) => run(tx, reactions, events, ctx),
    });
    stops.push(() => subscription.stop());
  }
  return stops;
}
