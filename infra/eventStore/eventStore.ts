import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TObject } from '@sinclair/typebox';
import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import type { DomainEvent } from '../../core/decider.ts';
import { randomId } from '../../core/ids.ts';
import { eventDefinition } from '../../events/registry.ts';
import type { Decider, Snapshotting } from '../../core/decider.ts';
import { AppError, isRetriable } from '../../core/errors.ts';
import { isUniqueViolation, withTransaction, type Pool, type PoolClient } from '../postgres/pool.ts';
import { storableJson } from '../postgres/storableText.ts';
import { unnestRows } from '../postgres/unnestRows.ts';
import { chainHead, eventHash, isChained } from './hashChain.ts';
import { runInlineProjections } from './inlineProjections.ts';
import { EVENT_COLUMNS, rowToEnvelope, type EventRow } from './rows.ts';
import { partitionOf } from './schema.ts';
import { readWithSnapshots, SNAPSHOT_EVERY, writeSnapshot } from './snapshots.ts';
import { sleep } from '../../core/sleep.ts';

export interface NewEvent extends DomainEvent {
  /** Deterministic where a retried step must reproduce it; random otherwise. */
  id?: string;
}

export interface EventMeta {
  now: Date;
  causationId?: string | null;
  correlationId?: string | null;
}

export interface AppendRequest extends EventMeta {
  streamId: string;
  accountId: string;
  /** The stream's version the decision was taken on (0 for a new stream). */
  expectedVersion: number;
  events: NewEvent[];
}

/** Thrown when a step's deterministic event ids are already stored: the step was done before. */
export class DuplicateEventError extends Error {
  constructor() {
    super('events already appended');
    this.name = 'DuplicateEventError';
  }
}

/** The stored columns, each travelling as one array parameter of its type (infra/postgres/unnestRows.ts). */
export const EVENT_ROWS = unnestRows([
  ['id', 'text'],
  ['stream_id', 'text'],
  ['stream_version', 'int'],
  ['account_id', 'text'],
  ['partition', 'smallint'],
  ['type', 'text'],
  ['version', 'int'],
  ['occurred_at', 'timestamptz'],
  ['causation_id', 'text'],
  ['correlation_id', 'text'],
  ['payload', 'jsonb'],
  ['prev_hash', 'text'],
]);

/**
 * One statement for any number of events on any number of streams, prepared once per connection
 * whatever the batch. The log orders by transaction id. If this
 * transaction got its id before the one that wrote a stream's previous event, its events would sort
 * before that event: such a row is not inserted, the append is refused as a conflict, and the retry
 * (a new transaction, a newer id) appends in order. Checked in the INSERT itself rather than by a
 * query before it: one round trip less on every append. The rows are inserted, and so numbered
 * (seq), in the order given: an anti join may emit them in any order (a hash join did, on a small
 * table), and the log's order within a transaction is seq.
 */
const APPEND_SQL = `INSERT INTO events (${EVENT_ROWS.names})
  SELECT ${EVENT_ROWS.names} FROM ${EVENT_ROWS.unnest} WITH ORDINALITY AS v(${EVENT_ROWS.names}, ord)
   WHERE NOT EXISTS (SELECT 1 FROM events p WHERE p.stream_id = v.stream_id
                       AND p.stream_version = v.stream_version - 1 AND p.tx_id > pg_current_xact_id())
   ORDER BY ord
  RETURNING ${EVENT_COLUMNS}`;

const checks = new Map<string, TypeCheck<TObject>>();
const checkPayload = (type: string, data: unknown): void => {
  let check = checks.get(type);
  if (!check) {
    check = TypeCompiler.Compile(eventDefinition(type).schema);
    checks.set(type, check);
  }
  if (!check.Check(data)) {
    const first = [...check.Errors(data)][0];
    throw new Error(`event ${type} does not match its schema: ${first?.path} ${first?.message}`);
  }
};

/**
 * Appends events to one stream with optimistic concurrency, and folds them into the inline
 * projections (infra/eventStore/inlineProjections.ts) in the same transaction.
 */
export async function appendToStream(tx: PoolClient, req: AppendRequest): Promise<EventEnvelope[]> {
  return (await appendToStreams(tx, [req]))[0]!;
}

/**
 * The same for several appends in one statement (a batch of submissions: many accounts' and
 * audits' streams at once). Requests to one stream must follow each other (each expecting the
 * version the one before leaves). Any conflict refuses them all. Returns each request's events.
 */
export async function appendToStreams(tx: PoolClient, reqs: readonly AppendRequest[]): Promise<EventEnvelope[][]> {
  const rows: unknown[][] = [];
  const idsOf: string[][] = [];
  // Credit movements link to the previous one of their stream (infra/eventStore/hashChain.ts); a
  // stream's second request in the call continues from its first's last link.
  const heads = new Map<string, string | null>();
  for (const req of reqs) {
    const partition = partitionOf(req.accountId);
    const ids: string[] = [];
    let head = heads.get(req.streamId);
    for (const [i, e] of req.events.entries()) {
      const def = eventDefinition(e.type);
      checkPayload(e.type, e.data);
      const id = e.id ?? randomId();
      const streamVersion = req.expectedVersion + i + 1;
      // What is stored (text made storable) is what the chain hashes, so verify recomputes the same hash.
      const stored = storableJson(e.data);
      let prevHash: string | null = null;
      if (isChained(e.type)) {
        if (head === undefined) head = await chainHead(tx, req.streamId, req.expectedVersion);
        prevHash = head;
        head = eventHash({
          id,
          type: e.type,
          version: def.latest,
          accountId: req.accountId,
          streamId: req.streamId,
          streamVersion,
          occurredAt: req.now.toISOString(),
          payload: JSON.parse(stored) as unknown,
          prevHash,
        });
        heads.set(req.streamId, head);
      }
      rows.push([
        id,
        req.streamId,
        streamVersion,
        req.accountId,
        partition,
        e.type,
        def.latest,
        req.now,
        req.causationId ?? null,
        req.correlationId ?? null,
        stored,
        prevHash,
      ]);
      ids.push(id);
    }
    idsOf.push(ids);
  }
  const expected = rows.length;
  if (expected === 0) return reqs.map(() => []);
  // No savepoint: a refused append ends its transaction (every caller rolls back, and transact()
  // retries in a new one), so it would cost two round trips per append for nothing.
  let byId: Map<string, EventEnvelope>;
  try {
    const result = await tx.query<EventRow>({
      name: 'append_events',
      text: APPEND_SQL,
      values: EVENT_ROWS.values(rows),
    });
    if (result.rows.length < expected) {
      const stored = new Set(result.rows.map((r) => r.id));
      const late = reqs.find((req, i) => idsOf[i]!.some((id) => !stored.has(id)));
      throw new AppError('concurrency_conflict', `stream ${late?.streamId} was written by a newer transaction`);
    }
    byId = new Map(result.rows.map((r) => [r.id, rowToEnvelope(r)]));
  } catch (e) {
    if (isUniqueViolation(e, 'events_stream_version_unique')) {
      throw new AppError('concurrency_conflict', `a stream moved past the version decided on: ${detailOf(e)}`);
    }
    if (isUniqueViolation(e, 'events_id_key')) throw new DuplicateEventError();
    throw e;
  }
  const appended = idsOf.map((ids) => ids.map((id) => byId.get(id)!));
  await runInlineProjections(tx, appended.flat());
  return appended;
}

const detailOf = (e: unknown): string => String((e as { detail?: string }).detail ?? '');

export async function readStream(db: Pick<PoolClient, 'query'>, streamId: string): Promise<EventEnvelope[]> {
  return (await readStreams(db, [streamId])).get(streamId)!;
}

/** Several whole streams in one query, each in stream order. */
export async function readStreams(
  db: Pick<PoolClient, 'query'>,
  streamIds: readonly string[],
): Promise<Map<string, EventEnvelope[]>> {
  const r = await db.query<EventRow>({
    name: 'read_streams',
    text: `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_version`,
    values: [streamIds],
  });
  const streams = new Map<string, EventEnvelope[]>(streamIds.map((id) => [id, []]));
  for (const row of r.rows) streams.get(row.stream_id)!.push(rowToEnvelope(row));
  return streams;
}

export interface Loaded<S> {
  state: S;
  version: number;
  /** The events folded: the whole stream, or those after the snapshot when the decider keeps one. */
  events: EventEnvelope[];
  /** The stream version of the snapshot the state started from (0: folded from the start). */
  snapshotVersion: number;
}

/**
 * Makes writers of hot streams queue instead of racing: held until the transaction ends, taken
 * before the streams are read, so a reader sees the last holder's commit and its append does not
 * conflict. Taken in sorted order, so two transactions locking overlapping sets cannot deadlock.
 * Optional, and only a shortcut: the optimistic check still decides what is appended.
 */
export async function lockStreams(tx: PoolClient, streamIds: readonly string[]): Promise<void> {
  await tx.query({
    name: 'lock_streams',
    text: 'SELECT pg_advisory_xact_lock(hashtextextended(s, 0)) FROM unnest($1::text[]) AS s',
    values: [[...new Set(streamIds)].sort()],
  });
}

type LoadingDecider<S> = Pick<Decider<never, DomainEvent, S>, 'evolve' | 'initialState' | 'snapshot'>;

/** The decider's state on a stream: its snapshot and the events after it, or the whole stream. */
export async function loadStream<S>(
  db: Pick<PoolClient, 'query'>,
  decider: LoadingDecider<S>,
  streamId: string,
): Promise<Loaded<S>> {
  return (await loadStreams(db, decider, [streamId])).get(streamId)!;
}

/**
 * The decider's state folded from every event of the stream, its snapshot not read: what checks
 * of a stream's truth fold (ledger verify, the soak), since the snapshot is only a cache of it.
 * `events` is then the whole stream.
 */
export const loadWholeStream = <S>(
  db: Pick<PoolClient, 'query'>,
  decider: LoadingDecider<S>,
  streamId: string,
): Promise<Loaded<S>> => loadStream(db, { evolve: decider.evolve, initialState: decider.initialState }, streamId);

/** The same for several streams of one decider, in one query. */
export async function loadStreams<S>(
  db: Pick<PoolClient, 'query'>,
  decider: LoadingDecider<S>,
  streamIds: readonly string[],
): Promise<Map<string, Loaded<S>>> {
  const evolveAll = (from: S, events: EventEnvelope[]) =>
    events.reduce((s, e) => decider.evolve(s, domainEventOf(e)), from);
  const loaded = new Map<string, Loaded<S>>();
  if (!decider.snapshot) {
    for (const [streamId, events] of await readStreams(db, streamIds))
      loaded.set(streamId, {
        state: evolveAll(decider.initialState(), events),
        version: events.length,
        events,
        snapshotVersion: 0,
      });
    return loaded;
  }
  const snapshotting = decider.snapshot as Snapshotting<unknown>;
  const fromJson = decider.snapshot.fromJson;
  for (const [streamId, { snapshot, events }] of await readWithSnapshots(db, streamIds, snapshotting)) {
    const start = snapshot ? (fromJson(snapshot.state) as S) : decider.initialState();
    const snapshotVersion = snapshot?.version ?? 0;
    loaded.set(streamId, {
      state: evolveAll(start, events),
      version: snapshotVersion + events.length,
      events,
      snapshotVersion,
    });
  }
  return loaded;
}

/**
 * Runs `fn` in a transaction and, when it fails with a retriable error (another writer moved a
 * stream first, a serialization failure, a dropped connection), runs it again on fresh state.
 * `fn` must therefore read everything it decides on inside itself.
 */
export async function transact<T>(pool: Pool, fn: (tx: PoolClient) => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(pool, fn);
    } catch (e) {
      if (isRetriable(e) && attempt < attempts) {
        // Small jittered pause so racing writers do not collide again in lock-step.
        await sleep(Math.random() * 5 * attempt);
        continue;
      }
      throw e;
    }
  }
}

interface CommandTarget<C, S> extends EventMeta {
  decider: Decider<C, DomainEvent, S>;
  streamId: string;
  accountId: string;
  /** Event ids for the decided events, for steps that must be reproducible. */
  eventIds?: (index: number, event: DomainEvent) => string;
  /** The stream as the caller already loaded it in this transaction (saves reading it again). */
  loaded?: Loaded<S>;
}

/**
 * One command, or several decided one after the other on the evolving state and appended together
 * (a stream is written once per transaction), e.g. opening an account with its first key and
 * credits. Any refusal refuses them all.
 */
export type CommandRequest<C, S> = CommandTarget<C, S> & ({ command: C } | { commands: readonly C[] });

/**
 * What a decision appended, and the stream as it left it: `after` can be given as the next
 * decision's `loaded` in the same transaction, or in a later one's first attempt (where a stream
 * moved meanwhile, the append conflicts and transact() runs the attempt again on a fresh read).
 */
export interface Decided<S> {
  events: EventEnvelope[];
  state: S;
  after: Loaded<S>;
}

/** Decide on one stream and append the outcome, retrying on a concurrency conflict. */
export async function handleCommand<C, S>(pool: Pool, req: CommandRequest<C, S>): Promise<Decided<S>> {
  return transact(pool, (tx) => decideInTransaction(tx, req));
}

/** The same inside a caller's transaction (several streams, or a consumer's checkpoint). */
export async function decideInTransaction<C, S>(tx: PoolClient, req: CommandRequest<C, S>): Promise<Decided<S>> {
  const loaded = req.loaded ?? (await loadStream(tx, req.decider, req.streamId));
  const { version } = loaded;
  let state = loaded.state;
  const decided: DomainEvent[] = [];
  for (const command of 'commands' in req ? req.commands : [req.command]) {
    const events = req.decider.decide(command, state);
    state = events.reduce((s, e) => req.decider.evolve(s, e), state);
    decided.push(...events);
  }
  const events = await appendToStream(tx, {
    streamId: req.streamId,
    accountId: req.accountId,
    expectedVersion: version,
    events: decided.map((e, i) => ({ ...e, id: req.eventIds?.(i, e) })),
    now: req.now,
    causationId: req.causationId ?? null,
    correlationId: req.correlationId ?? null,
  });
  const wrote = await snapshotIfDue(tx, req.decider, req.streamId, loaded, version + events.length, state);
  const after: Loaded<S> = {
    state,
    version: version + events.length,
    events: [],
    snapshotVersion: wrote ? version + events.length : loaded.snapshotVersion,
  };
  return { events, state, after };
}

/**
 * Writes the decider's snapshot of a stream once the stream has moved SNAPSHOT_EVERY events past
 * the one it was loaded from; `state` is the fold up to `version`, just appended in `tx`. True
 * when it wrote one.
 */
export async function snapshotIfDue<S>(
  tx: PoolClient,
  decider: Pick<Decider<never, DomainEvent, S>, 'snapshot'>,
  streamId: string,
  loaded: Loaded<S>,
  version: number,
  state: S,
): Promise<boolean> {
  if (!decider.snapshot || version - loaded.snapshotVersion < SNAPSHOT_EVERY || version <= loaded.version) return false;
  await writeSnapshot(tx, streamId, decider.snapshot as Snapshotting<unknown>, version, state);
  return true;
}
