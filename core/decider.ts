/** What a decider emits: a past-tense type and its data. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

/** What a decider takes: an imperative type and its data (time and ids included). */
export type Command<T extends string, D> = { readonly type: T; readonly data: Readonly<D> };

/**
 * The one pattern for business rules: pure functions of (command, state). Time, ids and anything
 * else from the outside come in with the command, so `decide` stays pure and tests are exact.
 * `decide` throws AppError to refuse a command.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

export const fold = <E extends DomainEvent, S>(
  decider: Pick<Decider<never, E, S>, 'evolve' | 'initialState'>,
  events: readonly E[],
): S => events.reduce((s, e) => decider.evolve(s, e), decider.initialState());
