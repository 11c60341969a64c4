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
import { chainHead, eventHash, isChained } from './chain.ts';
import { runInlineProjections } from './inlineProjections.ts';
import { EVENT_COLUMNS, rowToEnvelope, type EventRow } from './rows.ts';
import { partitionOf } from './schema.ts';
import { readWithSnapshot, SNAPSHOT_EVERY, writeSnapshot } from './snapshots.ts';
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

const COLUMNS =
  'id, stream_id, stream_version, account_id, partition, type, version, occurred_at, causation_id, correlation_id, payload, prev_hash';
/** The columns' types, cast in the VALUES: under a SELECT their parameters would otherwise be text. */
const COLUMN_TYPES = [
  'text',
  'text',
  'int',
  'text',
  'smallint',
  'text',
  'int',
  'timestamptz',
  'text',
  'text',
  'jsonb',
  'text',
];

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
 * projections (infra/eventStore/inlineProjections.ts) in the same transaction. Log order follows the id of the writing
 * transaction, assigned at its first write: a transaction should write only after it has read what
 * it decides on, and an append that would sort before the stream's last event is refused.
 */
export async function appendToStream(tx: PoolClient, req: AppendRequest): Promise<EventEnvelope[]> {
  if (req.events.length === 0) return [];
  const values: unknown[] = [];
  const rows: string[] = [];
  const partition = partitionOf(req.accountId);
  // Credit movements link to the previous one of their stream (infra/eventStore/chain.ts).
  let head: string | null | undefined;
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
    }
    const b = values.length;
    values.push(
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
    );
    rows.push(`(${COLUMN_TYPES.map((type, k) => `$${b + k + 1}::${type}`).join(', ')})`);
  }
  // The log orders by transaction id. If this transaction got its id before the one that wrote the
  // stream's last event, its events would sort before that event: the INSERT then inserts nothing,
  // and the retry (a new transaction, a newer id) appends in order. Checked in the INSERT itself
  // rather than by a query before it: one round trip less on every append to a stream that exists.
  const ordered =
    req.expectedVersion > 0
      ? `SELECT * FROM (VALUES ${rows.join(', ')}) AS v(${COLUMNS})
          WHERE NOT EXISTS (SELECT 1 FROM events p WHERE p.stream_id = $${values.length + 1}
                              AND p.stream_version = $${values.length + 2} AND p.tx_id > pg_current_xact_id())`
      : `VALUES ${rows.join(', ')}`;
  if (req.expectedVersion > 0) values.push(req.streamId, req.expectedVersion);
  // No savepoint: a refused append ends its transaction (every caller rolls back, and transact()
  // retries in a new one), so it would cost two round trips per append for nothing.
  let appended: EventEnvelope[];
  try {
    const result = await tx.query<EventRow>({
      // Named (prepared once per connection) for the common sizes: every submission appends.
      ...(rows.length <= 4 ? { name: `append_${rows.length}_${req.expectedVersion > 0 ? 'ordered' : 'new'}` } : {}),
      text: `INSERT INTO events (${COLUMNS}) ${ordered} RETURNING ${EVENT_COLUMNS}`,
      values,
    });
    if (result.rows.length === 0)
      throw new AppError('concurrency_conflict', `stream ${req.streamId} was written by a newer transaction`);
    appended = result.rows.map(rowToEnvelope);
  } catch (e) {
    if (isUniqueViolation(e, 'events_stream_version_unique')) {
      throw new AppError('concurrency_conflict', `stream ${req.streamId} moved past version ${req.expectedVersion}`);
    }
    if (isUniqueViolation(e, 'events_id_key')) throw new DuplicateEventError();
    throw e;
  }
  await runInlineProjections(tx, appended);
  return appended;
}

export async function readStream(db: Pick<PoolClient, 'query'>, streamId: string): Promise<EventEnvelope[]> {
  const r = await db.query<EventRow>({
    name: 'read_stream',
    text: `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`,
    values: [streamId],
  });
  return r.rows.map(rowToEnvelope);
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
 * Makes writers of a hot stream queue instead of racing: held until the transaction ends, taken
 * before the stream is read, so the reader sees the last holder's commit and its append does not
 * conflict. Optional, and only a shortcut: the optimistic check still decides what is appended.
 */
export async function lockStream(tx: PoolClient, streamId: string): Promise<void> {
  await tx.query({
    name: 'lock_stream',
    text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    values: [streamId],
  });
}

/** The decider's state on a stream: its snapshot and the events after it, or the whole stream. */
export async function loadStream<S>(
  db: Pick<PoolClient, 'query'>,
  decider: Pick<Decider<never, DomainEvent, S>, 'evolve' | 'initialState' | 'snapshot'>,
  streamId: string,
): Promise<Loaded<S>> {
  const evolveAll = (from: S, events: EventEnvelope[]) =>
    events.reduce((s, e) => decider.evolve(s, domainEventOf(e)), from);
  if (!decider.snapshot) {
    const events = await readStream(db, streamId);
    return { state: evolveAll(decider.initialState(), events), version: events.length, events, snapshotVersion: 0 };
  }
  const snapshotting = decider.snapshot as Snapshotting<unknown>;
  const { snapshot, events } = await readWithSnapshot(db, streamId, snapshotting);
  const start = snapshot ? (decider.snapshot.fromJson(snapshot.state) as S) : decider.initialState();
  const snapshotVersion = snapshot?.version ?? 0;
  return { state: evolveAll(start, events), version: snapshotVersion + events.length, events, snapshotVersion };
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

/** Decide on one stream and append the outcome, retrying on a concurrency conflict. */
export async function handleCommand<C, S>(
  pool: Pool,
  req: CommandRequest<C, S>,
): Promise<{ events: EventEnvelope[]; state: S }> {
  return transact(pool, (tx) => decideInTransaction(tx, req));
}

/** The same inside a caller's transaction (several streams, or a consumer's checkpoint). */
export async function decideInTransaction<C, S>(
  tx: PoolClient,
  req: CommandRequest<C, S>,
): Promise<{ events: EventEnvelope[]; state: S }> {
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
  const moved = version + events.length - loaded.snapshotVersion;
  if (req.decider.snapshot && events.length > 0 && moved >= SNAPSHOT_EVERY)
    await writeSnapshot(
      tx,
      req.streamId,
      req.decider.snapshot as Snapshotting<unknown>,
      version + events.length,
      state,
    );
  return { events, state };
}
