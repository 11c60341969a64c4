import { START } from '../../events/envelope.ts';
import { randomId } from '../../core/ids.ts';
import { HELD_BACK_MS, heldBackPartitions, readLog } from '../eventStore/readLog.ts';
import { LOG_PARTITIONS } from '../eventStore/schema.ts';
import type { Logger } from '../logger.ts';
import type { Pool, PoolClient } from '../postgres/pool.ts';
import { applyBatch, DEFAULT_RETRY, type RetryPolicy } from './applyBatch.ts';
import { FencedError, loadCheckpoint } from './checkpoints.ts';
import { trackingSubscriber, type SubscribeOptions, type Subscriber, type Subscription } from './port.ts';
import { sleep } from '../../core/sleep.ts';
import { EVENTS_APPENDED } from '../wakeups/schema.ts';
import { openWakeup } from '../wakeups/wakeups.ts';

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

/** int4 key of a group for two-key advisory locks (group, partition). */
const groupKey = (groupId: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < groupId.length; i++) h = Math.imul(h ^ groupId.charCodeAt(i), 0x01000193);
  return h | 0;
};

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
    const memberId = randomId();
    const key = groupKey(sub.groupId);
    const session: PoolClient = await pool.connect();
    // Held for the subscription's life: a server gone between two queries must not be an unhandled
    // 'error' event; the next query fails and the loop's retry handles it.
    session.on('error', () => undefined);
    const owned = new Set<number>();
    let stopping = false;
    let lastRebalance = 0;
    let lastFullPass = 0;
    // The partitions to read next: those the commits named, or every owned one (null).
    let due: Set<number> | null = null;
    const log = options.log.child({ groupId: sub.groupId, memberId });
    const wakeup = openWakeup(pool, log, EVENTS_APPENDED);
    const rebalanceMs = Math.min(500, memberTtlMs / 3);

    /** Returns whether this member's partitions changed. */
    const rebalance = async (): Promise<boolean> => {
      await session.query(
        `INSERT INTO subscription_members (group_id, member_id) VALUES ($1, $2)
         ON CONFLICT (group_id, member_id) DO UPDATE SET heartbeat_at = now()`,
        [sub.groupId, memberId],
      );
      await session.query(
        `DELETE FROM subscription_members WHERE group_id = $1 AND heartbeat_at < now() - make_interval(secs => $2)`,
        [sub.groupId, memberTtlMs / 1000],
      );
      const members = (
        await session.query<{ member_id: string }>(
          'SELECT member_id FROM subscription_members WHERE group_id = $1 ORDER BY member_id',
          [sub.groupId],
        )
      ).rows.map((r) => r.member_id);
      const rank = Math.max(0, members.indexOf(memberId));
      const count = Math.max(1, members.length);
      const target = new Set<number>();
      for (let p = 0; p < LOG_PARTITIONS; p++) if (p % count === rank) target.add(p);
      for (const p of [...owned]) {
        if (!target.has(p)) {
          await session.query('SELECT pg_advisory_unlock($1, $2)', [key, p]);
          owned.delete(p);
        }
      }
      const before = owned.size;
      let changed = false;
      for (const p of target) {
        if (owned.has(p)) continue;
        const r = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [key, p]);
        if (r.rows[0]!.ok) owned.add(p);
        changed = true;
      }
      return changed || owned.size !== before;
    };

    /** Applies everything available on one partition. */
    const drain = async (partition: number): Promise<void> => {
      for (;;) {
        if (stopping || !owned.has(partition)) return;
        const previous = await loadCheckpoint(pool, sub.groupId, SOURCE, partition);
        const events = await readLog(pool, {
          after: previous?.position ?? START,
          partition,
          limit: sub.batchSize ?? 500,
        });
        if (events.length === 0) return;
        await applyBatch(
          pool,
          sub,
          {
            source: SOURCE,
            partition,
            events,
            previous,
            checkpointAfter: (e) => ({ position: e.position, kafkaOffset: null }),
          },
          log,
          retry,
          () => stopping,
        );
      }
    };

    /** Waits for the next commit on an owned partition, or for the safety net's full pass. */
    const waitForWork = async (): Promise<Set<number> | null> => {
      // Events held back by an older transaction: looked at again shortly (readLog.ts).
      const held = (await heldBackPartitions(pool)).filter((p) => owned.has(p));
      const untilFull = pollMs - (Date.now() - lastFullPass);
      const untilRebalance = rebalanceMs - (Date.now() - lastRebalance);
      const payloads = await wakeup.wait(held.length ? HELD_BACK_MS : Math.min(untilFull, untilRebalance));
      if (payloads.includes('')) return null;
      return new Set([...held, ...payloads.map((p) => Number(p.slice(EVENTS_APPENDED.length + 1)))]);
    };

    const loop = async () => {
      while (!stopping) {
        try {
          const now = Date.now();
          if (now - lastRebalance >= rebalanceMs) {
            if (await rebalance()) due = null;
            lastRebalance = now;
          }
          // Every partition at least every pollMs: the safety net for a notification lost with
          // the LISTEN connection.
          const full = due === null || now - lastFullPass >= pollMs;
          if (full) lastFullPass = now;
          const partitions = [...owned].filter((p) => full || due!.has(p)).sort((a, b) => a - b);
          for (const p of partitions) await drain(p);
          due = await waitForWork();
        } catch (e) {
          if (stopping) break;
          if (e instanceof FencedError) log.warn({ err: e }, 'partition taken over; rebalancing');
          else log.error({ err: e }, 'subscription loop failed; retrying');
          lastRebalance = 0;
          due = null;
          await sleep(500);
        }
      }
    };
    const running = loop();

    return {
      groupId: sub.groupId,
      assigned: () => [...owned].sort((a, b) => a - b),
      async stop() {
        if (stopping) return;
        stopping = true;
        wakeup.close();
        await running;
        await session
          .query('DELETE FROM subscription_members WHERE group_id = $1 AND member_id = $2', [sub.groupId, memberId])
          .catch(() => undefined);
        await session.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
        session.release();
      },
    };
  }

  return trackingSubscriber('store', subscribe);
}
