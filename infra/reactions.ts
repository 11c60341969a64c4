import type { EventEnvelope } from '../events/envelope.ts';
import type { Config, Role } from './config.ts';
import type { PoolClient } from './postgres/pool.ts';
import type { Subscriber } from './subscriptions/port.ts';

/**
 * How a reaction is run; what the service reacts to is listed in services/reactions.ts, and
 * registered at start-up (services/registration.ts). A reaction only records (events, tasks),
 * idempotently, in the transaction it is given. Two ways feed the same reactions:
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
export interface ReactionContext {
  /** Length of a share link's day (SHARE_DAY_SECONDS). */
  shareDayMs: number;
  /**
   * In a step: the decider's state of a stream it has just appended to, by stream id, as the
   * step's decision left it (a reaction then need not read the stream again in the same transaction).
   */
  states?: ReadonlyMap<string, unknown>;
}

export interface Reaction {
  /** What it does, for the reader of the list. */
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

let registered: readonly Reaction[] | null = null;

/**
 * Registers the service's reactions (services/registration.ts does, at start-up). Until then a step
 * refuses to react: a process that forgot would otherwise commit events whose next step never comes.
 */
export function useReactions(reactions: readonly Reaction[]): void {
  registered = reactions;
}

const reactions = (): readonly Reaction[] => {
  if (registered === null)
    throw new Error('no reactions registered: call registerService() (services/registration.ts) at start-up');
  return registered;
};

const DEFAULT_CONTEXT: ReactionContext = { shareDayMs: 86_400_000 };

/** Runs the given reactions on the events they react to, in `tx`. */
async function run(
  tx: PoolClient,
  list: readonly Reaction[],
  events: readonly EventEnvelope[],
  ctx: ReactionContext,
): Promise<void> {
  for (const r of list) {
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
    reactions().filter((r) => r.inStep),
    events,
    ctx,
  );

/**
 * Subscribes the groups of the registered reactions of `roles` that this process runs
 * (config.roles); returns the functions that stop them.
 */
export async function startReactions(
  config: Config,
  subscriber: Subscriber,
  roles: readonly Role[],
): Promise<(() => Promise<void>)[]> {
  const ctx: ReactionContext = { shareDayMs: config.share.daySeconds * 1000 };
  const runs = (r: Reaction) => r.roles.some((role) => roles.includes(role) && config.roles.includes(role));
  const groups = new Map<string, Reaction[]>();
  for (const r of reactions().filter(runs)) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const stops: (() => Promise<void>)[] = [];
  for (const [groupId, list] of groups) {
    const subscription = await subscriber.subscribe({
      groupId,
      types: [...new Set(list.flatMap((r) => r.on))],
      handle: (events, tx) => run(tx, list, events, ctx),
    });
    stops.push(() => subscription.stop());
  }
  return stops;
}
