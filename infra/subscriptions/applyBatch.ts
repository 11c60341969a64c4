import { isRetriable } from '../../core/errors.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import type { Logger } from '../logger.ts';
import { withTransaction, type Pool } from '../postgres/pool.ts';
import { storableText } from '../postgres/storableText.ts';
import { FencedError, saveCheckpoint, type Checkpoint } from './checkpoints.ts';
import type { SubscribeOptions } from './port.ts';
import { sleep } from '../../core/sleep.ts';

export interface Batch {
  source: string;
  partition: number;
  events: EventEnvelope[];
  previous: Checkpoint | null;
  /** The checkpoint after the given event of the batch. */
  checkpointAfter(event: EventEnvelope): Checkpoint;
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
}

/** The longest pause between two tries of a batch that keeps failing. */
const MAX_RETRY_DELAY_MS = 5_000;

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 200 };

/**
 * Applies a batch and moves the checkpoint in one transaction. A failing batch is retried with
 * backoff; if it still fails, its events are applied one at a time and the one that fails is set
 * aside in dead_letters with its error, in the same transaction as the checkpoint moving past it.
 * Returns the checkpoint reached. FencedError (another member owns the partition now) propagates.
 */
export async function applyBatch(
  pool: Pool,
  options: SubscribeOptions,
  batch: Batch,
  log: Logger,
  retry: RetryPolicy = DEFAULT_RETRY,
  isStopping: () => boolean = () => false,
): Promise<Checkpoint> {
  const last = batch.events[batch.events.length - 1]!;
  const wanted = (e: EventEnvelope) => !options.types || options.types.includes(e.type);
  const commit = (events: EventEnvelope[], from: Checkpoint | null, to: Checkpoint) =>
    withTransaction(pool, async (tx) => {
      const handled = events.filter(wanted);
      if (handled.length) await options.handle(handled, tx);
      await saveCheckpoint(tx, options.groupId, batch.source, batch.partition, from, to);
    });

  let lastError: unknown;
  // A retriable error (the database away, a serialization failure) says nothing about the events:
  // it is retried for as long as the subscriber runs and never dead-letters. Any other error
  // counts towards maxAttempts.
  for (let attempt = 1, waits = 0; attempt <= retry.maxAttempts; waits++) {
    try {
      const to = batch.checkpointAfter(last);
      await commit(batch.events, batch.previous, to);
      return to;
    } catch (e) {
      if (e instanceof FencedError) throw e;
      lastError = e;
      const retriable = isRetriable(e);
      log.warn(
        { err: e, groupId: options.groupId, partition: batch.partition, attempt, retriable },
        'batch failed; retrying',
      );
      if (isStopping()) throw e;
      if (!retriable) attempt++;
      await sleep(Math.min(retry.baseDelayMs * 2 ** Math.min(waits, 10), MAX_RETRY_DELAY_MS));
    }
  }

  // Isolate the poison event: one at a time, dead-lettering the ones that still fail.
  let from = batch.previous;
  for (const event of batch.events) {
    const to = batch.checkpointAfter(event);
    try {
      await commit([event], from, to);
    } catch (e) {
      if (e instanceof FencedError) throw e;
      log.error({ err: e, groupId: options.groupId, eventId: event.id, type: event.type }, 'event dead-lettered');
      await withTransaction(pool, async (tx) => {
        await tx.query(
          `INSERT INTO dead_letters (group_id, event_id, event_type, account_id, error, attempts)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (group_id, event_id) DO UPDATE SET error = EXCLUDED.error, failed_at = now()`,
          [
            options.groupId,
            event.id,
            event.type,
            event.accountId,
            storableText(String((e as Error)?.stack ?? e ?? lastError)),
            retry.maxAttempts,
          ],
        );
        await saveCheckpoint(tx, options.groupId, batch.source, batch.partition, from, to);
      });
    }
    from = to;
  }
  return from!;
}
