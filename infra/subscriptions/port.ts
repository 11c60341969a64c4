import type { EventEnvelope } from '../../events/envelope.ts';
import type { PoolClient } from '../postgres/pool.ts';

/**
 * The one way to consume the event log. Two adapters stand behind it: Kafka consumer groups
 * (kafkaSubscriber.ts) and the event-store table itself (storeSubscriber.ts), the
 * embedded default. Either way the handler runs inside a PostgreSQL transaction in which the
 * adapter also stores the group's checkpoint, so a crash may repeat a batch but never half-apply it
 * or apply it twice.
 */
export interface SubscribeOptions {
  /** Consumer group: processes sharing it share the partitions. */
  groupId: string;
  handle(events: EventEnvelope[], tx: PoolClient): Promise<void>;
  /** Only these event types reach `handle`; the checkpoint still moves past the others. */
  types?: readonly string[];
  batchSize?: number;
}

export interface Subscription {
  readonly groupId: string;
  /** Partitions this member holds right now. */
  assigned(): number[];
  stop(): Promise<void>;
}

export interface Subscriber {
  readonly kind: 'kafka' | 'store';
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}

/**
 * An adapter's Subscriber from its way of opening one subscription: keeps the open ones, so that
 * close() stops them all (both adapters use it).
 */
export function trackingSubscriber(
  kind: Subscriber['kind'],
  open: (options: SubscribeOptions) => Promise<Subscription>,
): Subscriber {
  const live = new Set<Subscription>();
  return {
    kind,
    async subscribe(options) {
      const opened = await open(options);
      const tracked: Subscription = {
        groupId: opened.groupId,
        assigned: () => opened.assigned(),
        async stop() {
          await opened.stop();
          live.delete(tracked);
        },
      };
      live.add(tracked);
      return tracked;
    },
    async close() {
      await Promise.all([...live].map((s) => s.stop()));
    },
  };
}
