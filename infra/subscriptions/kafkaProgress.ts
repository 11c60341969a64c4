import type { Consumer } from 'kafkajs';
import type { Logger } from '../logger.ts';
import type { Pool } from '../postgres/pool.ts';
import { FencedError, saveCheckpoint, type Checkpoint } from './checkpoints.ts';

/** How often a member writes what it read past without a transaction of its own. */
export const DEFAULT_FLUSH_MS = 1000;

export interface ProgressDeps {
  pool: Pool;
  consumer: Consumer;
  groupId: string;
  topic: string;
  log: Logger;
  /** The member's view of its partitions' stored checkpoints (shared with its batches). */
  known: Map<number, Checkpoint | null>;
  /** Partitions the member holds now: it writes no other's checkpoint. */
  assigned: () => number[];
  /** Runs `fn` after the member's batch at work, never beside it. */
  serial: <T>(fn: () => Promise<T>) => Promise<T>;
  flushMs?: number;
}

/**
 * What a Kafka member has read past but not yet written, written at most every `flushMs`:
 * - the checkpoint past batches with none of the group's event types: such a batch has nothing to
 *   apply, so it opens no transaction (each group of a process ran one per relayed commit, four
 *   an audit step, on the same cores and disk as the audit's own commits). The next applied batch
 *   moves the checkpoint past them anyway; a crash before either re-reads them and applies nothing;
 * - the offsets committed to Kafka, for lag tools only (PostgreSQL's checkpoint is the authority;
 *   a member seeks to it on assignment): one OffsetCommit a second instead of one per batch.
 * The embedded adapter does the same for its skipped events (storeSubscriber.ts, flushPartition).
 */
export function memberProgress(d: ProgressDeps) {
  const pending = new Map<number, Checkpoint>();
  const offsets = new Map<number, bigint>();
  let timer: NodeJS.Timeout | undefined;

  const writeCheckpoint = async (partition: number, to: Checkpoint): Promise<void> => {
    // Written only from the checkpoint this member read or wrote: one read afresh might be another
    // member's, already past `to`.
    if (!d.known.has(partition)) return;
    try {
      await saveCheckpoint(d.pool, d.groupId, d.topic, partition, d.known.get(partition)!, to);
      d.known.set(partition, to);
    } catch (e) {
      // Another member moved it: its checkpoint covers these events or will re-read them.
      if (!(e instanceof FencedError)) throw e;
      d.known.clear();
      pending.clear();
    }
  };

  const flush = async (): Promise<void> => {
    const held = new Set(d.assigned());
    for (const [partition, to] of [...pending]) {
      if (held.has(partition)) await writeCheckpoint(partition, to);
      if (pending.get(partition) === to) pending.delete(partition);
    }
    const commits = [...offsets].filter(([p]) => held.has(p));
    offsets.clear();
    if (commits.length)
      await d.consumer
        .commitOffsets(commits.map(([partition, offset]) => ({ topic: d.topic, partition, offset: offset.toString() })))
        .catch(() => undefined);
  };

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void d
        .serial(flush)
        .catch((e: unknown) => d.log.warn({ err: e }, 'progress not written; it is with the next batch or the stop'));
    }, d.flushMs ?? DEFAULT_FLUSH_MS);
    timer.unref();
  };

  return {
    /** The checkpoint a skipped batch reached; null: the stored one covers it. */
    pendingOf: (partition: number): Checkpoint | undefined => pending.get(partition),
    readPast(partition: number, to: Checkpoint): void {
      pending.set(partition, to);
      schedule();
    },
    /** An applied batch wrote its checkpoint past everything read before it. */
    written(partition: number): void {
      pending.delete(partition);
    },
    consumed(partition: number, nextOffset: bigint): void {
      offsets.set(partition, nextOffset);
      schedule();
    },
    /** A rebalance or a fence: what this member read past is someone else's to write. */
    forget(): void {
      pending.clear();
      offsets.clear();
    },
    /** Writes what is pending now (the member stops). */
    async stop(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await d.serial(flush);
    },
  };
}

export type MemberProgress = ReturnType<typeof memberProgress>;
