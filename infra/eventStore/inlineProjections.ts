import type { EventEnvelope } from '../../events/envelope.ts';
import type { PoolClient } from '../postgres/pool.ts';

/**
 * A read model the event store writes in the append's own transaction (Emmett's inline projection):
 * what a request must read back at once (a key, a revocation, a share link, a job just accepted).
 * Its handler must ignore an event it has already applied: asynchronous consumers may apply it too.
 */
export interface InlineProjection {
  name: string;
  /** The event types it folds; others are never passed to it. */
  canHandle: readonly string[];
  handle(events: EventEnvelope[], tx: PoolClient): Promise<void>;
}

let registered: readonly InlineProjection[] | null = null;

/**
 * Registers the service's inline projections (services/registration.ts does, at start-up). Until
 * then an append refuses to run: a process that forgot would otherwise commit events its read
 * models never see.
 */
export function useInlineProjections(projections: readonly InlineProjection[]): void {
  registered = projections;
}

/** Folds freshly appended events into each inline projection that handles them, in `tx`. */
export async function runInlineProjections(tx: PoolClient, events: readonly EventEnvelope[]): Promise<void> {
  if (registered === null)
    throw new Error('no inline projections registered: call registerService() (services/registration.ts) at start-up');
  for (const p of registered) {
    const handled = events.filter((e) => p.canHandle.includes(e.type));
    if (handled.length) await p.handle(handled, tx);
  }
}
