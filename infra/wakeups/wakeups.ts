import type { Logger } from '../logger.ts';
import { listen } from '../postgres/listener.ts';
import type { Pool } from '../postgres/pool.ts';
import { WAKE_CHANNEL } from './schema.ts';

/** What a loop waits on between two passes over its work. */
export interface Wakeup {
  /**
   * Resolves with the payloads received since the last wait (at once when there are some), or
   * with none after `ms`: the safety net.
   */
  wait(ms: number): Promise<string[]>;
  /** Ends this loop's wait now, from within the process (work handed to it directly). */
  wake(): void;
  /** Stops listening for this loop (the shared connection closes with the last one). */
  close(): void;
}

interface Hub {
  loops: Map<string, Set<Signal>>;
  users: number;
  stop: () => Promise<void>;
}

/** The payloads a loop has not taken yet, and its waiter while it sleeps. */
class Signal {
  private received = new Set<string>();
  private waiter: (() => void) | null = null;

  fire(payload: string): void {
    this.received.add(payload);
    this.waiter?.();
  }

  wait(ms: number): Promise<string[]> {
    if (this.received.size > 0) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = null;
        resolve(this.take());
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiter = done;
    });
  }

  private take(): string[] {
    const payloads = [...this.received];
    this.received.clear();
    return payloads;
  }
}

// One LISTEN connection per pool (per process, in practice) whatever the number of loops.
const hubs = new Map<Pool, Hub>();

/** `a/b` reaches the loops waiting on `a/b` and on `a`. */
const keysOf = (payload: string): string[] => {
  const slash = payload.indexOf('/');
  return slash < 0 ? [payload] : [payload, payload.slice(0, slash)];
};

function hubOf(pool: Pool, log: Logger): Hub {
  let hub = hubs.get(pool);
  if (hub) return hub;
  const loops = new Map<string, Set<Signal>>();
  const stop = listen(pool, WAKE_CHANNEL, 'audit-service-wakeups', log, {
    // Whatever was committed while nobody listened is looked at now (an empty payload: "anything").
    onListening: () => loops.forEach((signals) => signals.forEach((s) => s.fire(''))),
    onLost: () => undefined,
    onNotification: (payload) => {
      for (const key of keysOf(payload)) loops.get(key)?.forEach((s) => s.fire(payload));
    },
  });
  hub = { loops, users: 0, stop };
  hubs.set(pool, hub);
  return hub;
}

/**
 * A wake-up for one loop (the relay, a subscription, a worker of one task kind): woken by the
 * commits that notify `key` or `key/...` (infra/wakeups/schema.ts). Waits still end after their
 * timeout, so a notification lost with the connection is only late, never missed.
 */
export function openWakeup(pool: Pool, log: Logger, key: string): Wakeup {
  const hub = hubOf(pool, log);
  const signal = new Signal();
  let signals = hub.loops.get(key);
  if (!signals) hub.loops.set(key, (signals = new Set()));
  signals.add(signal);
  hub.users++;
  let closed = false;
  return {
    wait: (ms) => signal.wait(ms),
    wake: () => signal.fire(''),
    close() {
      if (closed) return;
      closed = true;
      signal.fire('');
      signals.delete(signal);
      if (--hub.users === 0) {
        hubs.delete(pool);
        void hub.stop();
      }
    },
  };
}
