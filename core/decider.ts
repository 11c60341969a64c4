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
  /** A decider on a stream that grows for ever may keep its state as a snapshot (infra/eventStore/snapshots.ts). */
  snapshot?: Snapshotting<State>;
}

/**
 * How a decider's state is kept between decisions, so that loading it reads the snapshot and the
 * events after it instead of the whole stream. `version` names the state's shape: a snapshot of
 * another version is ignored (the stream is folded from the start and the snapshot rewritten), so
 * changing `evolve` or the state only needs a new version, never a migration.
 */
export interface Snapshotting<State> {
  name: string;
  version: number;
  toJson(state: State): unknown;
  fromJson(json: unknown): State;
}

export const fold = <E extends DomainEvent, S>(
  decider: Pick<Decider<never, E, S>, 'evolve' | 'initialState'>,
  events: readonly E[],
): S => events.reduce((s, e) => decider.evolve(s, e), decider.initialState());
