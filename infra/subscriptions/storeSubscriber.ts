import { START, type EventEnvelope } from '../../events/envelope.ts';
import { randomId } from '../../core/ids.ts';
import { HELD_BACK_MS, heldBackPartitions, readAvailable } from '../eventStore/readLog.ts';
import { LOG_PARTITIONS } from '../eventStore/schema.ts';
import type { Logger } from '../logger.ts';
import type { Pool, PoolClient } from '../postgres/pool.ts';
import { applyBatch, DEFAULT_RETRY, type RetryPolicy } from './applyBatch.ts';
import { FencedError, loadCheckpoint, saveCheckpoint, type Checkpoint } from './checkpoints.ts';
import { trackingSubscriber, type SubscribeOptions, type Subscriber, type Subscription } from './port.ts';
import { sleep } from '../../core/sleep.ts';
import { EVENTS_APPENDED, parseEventsAppended } from '../wakeups/schema.ts';
import { openWakeup, type Wakeup } from '../wakeups/wakeups.ts';

export interface StoreSubscriberOptions {
  log: Logger;
  /**
   * The safety net: a member is woken by every commit that appends events (infra/wakeups) and
   * reads the log anyway this often.
   */
  pollMs?: number;
  /** A member whose heartbeat is older than this is considered gone and its partitions move. */
  memberTtlMs?: number;
  retry?: RetryPolicy;
}

const SOURCE = 'log';
const DEFAULT_BATCH = 500;

/** int4 key of a group for two-key advisory locks (group, partition). */
const groupKey = (groupId: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < groupId.length; i++) h = Math.imul(h ^ groupId.charCodeAt(i), 0x01000193);
  return h | 0;
};

/** One member of a group: its session (which holds the partitions' locks) and what it knows. */
interface Member {
  sub: SubscribeOptions;
  id: string;
  key: number;
  session: PoolClient;
  owned: Set<number>;
  /**
   * The checkpoint of each owned partition as this member last read or wrote it. The member is
   * its partition's only writer while it holds the lock, and every write is a compare-and-set
   * (saveCheckpoint), so a stale entry can only fence a write (FencedError), which clears them all.
   */
  known: Map<number, Checkpoint | null>;
  /**
   * Where reading goes on, when past `known`: batches with no event of the group's types move it
   * without a transaction; the checkpoint catches up with the next batch it applies, or at the
   * next full pass (flush), or when the member stops. Re-reading such events after a crash is free.
   */
  readTo: Map<number, Checkpoint>;
  log: Logger;
}

/**
 * Heartbeats, forgets members gone stale, and returns the live members of the group in rank order:
 * one statement (it ran twice a second per group, as three). Its reads see the rows as the
 * statement began, so this member and the stale ones are taken from what it wrote and deleted.
 */
async function liveMembers(m: Member, memberTtlMs: number): Promise<string[]> {
  const r = await m.session.query<{ member_id: string }>(
    `WITH beat AS (
       INSERT INTO subscription_members (group_id, member_id) VALUES ($1, $2)
       ON CONFLICT (group_id, member_id) DO UPDATE SET heartbeat_at = now()
       RETURNING member_id),
     gone AS (
       DELETE FROM subscription_members
        WHERE group_id = $1 AND member_id <> $2 AND heartbeat_at < now() - make_interval(secs => $3)
       RETURNING member_id)
     SELECT member_id FROM subscription_members
      WHERE group_id = $1 AND member_id <> $2 AND member_id NOT IN (SELECT member_id FROM gone)
     UNION SELECT member_id FROM beat
     ORDER BY member_id`,
    [m.sub.groupId, m.id, memberTtlMs / 1000],
  );
  return r.rows.map((row) => row.member_id);
}

/** Takes this member's share of the partitions (by rank) and lets go of the rest; returns whether its set changed. */
async function rebalance(m: Member, memberTtlMs: number): Promise<boolean> {
  const members = await liveMembers(m, memberTtlMs);
  const rank = Math.max(0, members.indexOf(m.id));
  const count = Math.max(1, members.length);
  const target = new Set<number>();
  for (let p = 0; p < LOG_PARTITIONS; p++) if (p % count === rank) target.add(p);
  for (const p of [...m.owned]) {
    if (!target.has(p)) {
      await m.session.query('SELECT pg_advisory_unlock($1, $2)', [m.key, p]);
      await flushPartition(m, p).catch(() => undefined);
      m.owned.delete(p);
      m.known.delete(p);
      m.readTo.delete(p);
    }
  }
  const before = m.owned.size;
  let changed = false;
  for (const p of target) {
    if (m.owned.has(p)) continue;
    const r = await m.session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [m.key, p]);
    if (r.rows[0]!.ok) m.owned.add(p);
    changed = true;
  }
  return changed || m.owned.size !== before;
}

interface Loop {
  pool: Pool;
  m: Member;
  retry: RetryPolicy;
  isStopping: () => boolean;
}

/** The checkpoint to compare-and-set from: read from the table the first time. */
async function storedCheckpoint(pool: Pool, m: Member, partition: number): Promise<Checkpoint | null> {
  if (m.known.has(partition)) return m.known.get(partition)!;
  const stored = await loadCheckpoint(pool, m.sub.groupId, SOURCE, partition);
  m.known.set(partition, stored);
  return stored;
}

/**
 * Applies everything available on one partition. A batch shorter than the limit was the end of
 * what the log showed: a commit after it notifies the wake-up. Returns whether events of the
 * partition were held back behind an older transaction (its last read says): those are looked
 * for before the next wait (waitForWork), as no notification may follow.
 */
async function drain({ pool, m, retry, isStopping }: Loop, partition: number): Promise<boolean> {
  const limit = m.sub.batchSize ?? DEFAULT_BATCH;
  const types = m.sub.types;
  for (;;) {
    if (isStopping() || !m.owned.has(partition)) return false;
    const previous = await storedCheckpoint(pool, m, partition);
    const after = m.readTo.get(partition) ?? previous;
    const { events, heldBack } = await readAvailable(pool, { after: after?.position ?? START, partition, limit });
    if (events.length === 0) return heldBack;
    const checkpointAfter = (e: EventEnvelope): Checkpoint => ({ position: e.position, kafkaOffset: null });
    if (types && !events.some((e) => types.includes(e.type))) {
      m.readTo.set(partition, checkpointAfter(events[events.length - 1]!));
    } else {
      const batch = { source: SOURCE, partition, events, previous, checkpointAfter };
      m.known.set(partition, await applyBatch(pool, m.sub, batch, m.log, retry, isStopping));
      m.readTo.delete(partition);
    }
    if (events.length < limit) return heldBack;
  }
}

/** Moves the stored checkpoint up to where reading went past events of no interest to the group. */
async function flushPartition(m: Member, partition: number): Promise<void> {
  const to = m.readTo.get(partition);
  if (!to) return;
  const from = m.known.get(partition) ?? null;
  // One statement, on the member's own session: nothing else to commit with it.
  await saveCheckpoint(m.session, m.sub.groupId, SOURCE, partition, from, to);
  m.known.set(partition, to);
  m.readTo.delete(partition);
}

const flush = async (m: Member): Promise<void> => {
  for (const p of [...m.readTo.keys()]) await flushPartition(m, p);
};

/**
 * The full pass's partitions: of the owned ones, those with events past where this member reads
 * (one query for all, instead of a read per partition), and those whose checkpoint it has not read yet.
 */
async function partitionsWithNews(pool: Pool, m: Member): Promise<number[]> {
  const unknown = [...m.owned].filter((p) => !m.known.has(p));
  const probed = [...m.owned].filter((p) => m.known.has(p));
  if (probed.length === 0) return unknown;
  const from = probed.map((p) => (m.readTo.get(p) ?? m.known.get(p))?.position ?? START);
  const r = await pool.query<{ p: number }>(
    `SELECT t.p FROM unnest($1::int[], $2::text[], $3::bigint[]) AS t(p, tx, seq)
      WHERE EXISTS (SELECT 1 FROM events e
                     WHERE e.partition = t.p AND (e.tx_id, e.seq) > (t.tx::xid8, t.seq)
                       AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot()))`,
    [probed, from.map((f) => f.txId.toString()), from.map((f) => f.seq.toString())],
  );
  return [...unknown, ...r.rows.map((row) => row.p)];
}

/**
 * Waits for the next commit of events of the group's types on an owned partition, or until `ms`;
 * returns the partitions to read (null: every owned one). A commit of other types only is not
 * waited for: the next full pass moves past it. `heldBack`: partitions whose events wait behind an
 * older transaction (readLog.ts), looked at again shortly; the drains found those they read, and a
 * full pass asks for every owned one.
 */
async function waitForWork(
  pool: Pool,
  m: Member,
  wakeup: Wakeup,
  ms: number,
  heldBack: Set<number>,
  full: boolean,
): Promise<Set<number> | null> {
  const due = new Set(heldBack);
  if (full) for (const p of await heldBackPartitions(pool)) if (m.owned.has(p)) due.add(p);
  const until = Date.now() + (due.size ? HELD_BACK_MS : ms);
  const types = m.sub.types;
  for (;;) {
    const payloads = await wakeup.wait(until - Date.now());
    if (payloads.includes('')) return null;
    for (const { partition, type } of payloads.map(parseEventsAppended))
      if (type === null || !types || types.includes(type)) due.add(partition);
    if (due.size > 0 || payloads.length === 0 || Date.now() >= until) return due;
  }
}

/** The member's loop until it stops: rebalance now and then, drain what is due, wait. */
async function run(loop: Loop, wakeup: Wakeup, pollMs: number, memberTtlMs: number): Promise<void> {
  const { m } = loop;
  const rebalanceMs = Math.min(500, memberTtlMs / 3);
  let lastRebalance = 0;
  let lastFullPass = 0;
  // The partitions to read next: those the commits named, or every owned one (null).
  let due: Set<number> | null = null;
  while (!loop.isStopping()) {
    try {
      const now = Date.now();
      if (now - lastRebalance >= rebalanceMs) {
        if (await rebalance(m, memberTtlMs)) due = null;
        lastRebalance = now;
      }
      // Every partition at least every pollMs: the safety net for a notification lost with
      // the LISTEN connection.
      const full = due === null || now - lastFullPass >= pollMs;
      if (full) lastFullPass = now;
      const named = full ? await partitionsWithNews(loop.pool, m) : [...m.owned].filter((p) => due!.has(p));
      const partitions = named.sort((a, b) => a - b);
      const heldBack = new Set<number>();
      for (const p of partitions) if (await drain(loop, p)) heldBack.add(p);
      if (full) await flush(m);
      const untilFull = pollMs - (Date.now() - lastFullPass);
      const untilRebalance = rebalanceMs - (Date.now() - lastRebalance);
      due = await waitForWork(loop.pool, m, wakeup, Math.min(untilFull, untilRebalance), heldBack, full);
    } catch (e) {
      if (loop.isStopping()) break;
      if (e instanceof FencedError) m.log.warn({ err: e }, 'partition taken over; rebalancing');
      else m.log.error({ err: e }, 'subscription loop failed; retrying');
      // Whatever failed, the checkpoints are read again from the table.
      m.known.clear();
      m.readTo.clear();
      lastRebalance = 0;
      due = null;
      await sleep(500);
    }
  }
}

/** Leaves the group: its membership row and its partitions' locks go, the session returns to the pool. */
async function leave(m: Member): Promise<void> {
  await flush(m).catch(() => undefined);
  await m.session
    .query('DELETE FROM subscription_members WHERE group_id = $1 AND member_id = $2', [m.sub.groupId, m.id])
    .catch(() => undefined);
  await m.session.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
  m.session.release();
}

/**
 * The embedded adapter: consumes the event-store table in commit order. The log has fixed virtual
 * partitions (an account always in the same one); live members of a group split them by rank and
 * hold each with a session advisory lock, so a member that dies (its connection closes) frees its
 * partitions and the others take them over once its heartbeat is stale.
 */
export function createStoreSubscriber(pool: Pool, options: StoreSubscriberOptions): Subscriber {
  const pollMs = options.pollMs ?? 1000;
  const memberTtlMs = options.memberTtlMs ?? 3000;
  const retry = options.retry ?? DEFAULT_RETRY;

  async function subscribe(sub: SubscribeOptions): Promise<Subscription> {
    const id = randomId();
    const session: PoolClient = await pool.connect();
    // Held for the subscription's life: a server gone between two queries must not be an unhandled
    // 'error' event; the next query fails and the loop's retry handles it.
    session.on('error', () => undefined);
    const log = options.log.child({ groupId: sub.groupId, memberId: id });
    const m: Member = {
      sub,
      id,
      key: groupKey(sub.groupId),
      session,
      owned: new Set(),
      known: new Map(),
      readTo: new Map(),
      log,
    };
    let stopping = false;
    const wakeup = openWakeup(pool, log, EVENTS_APPENDED);
    const running = run({ pool, m, retry, isStopping: () => stopping }, wakeup, pollMs, memberTtlMs);

    return {
      groupId: sub.groupId,
      assigned: () => [...m.owned].sort((a, b) => a - b),
      async stop() {
        if (stopping) return;
        stopping = true;
        wakeup.close();
        await running;
        await leave(m);
      },
    };
  }

  return trackingSubscriber('store', subscribe);
}
