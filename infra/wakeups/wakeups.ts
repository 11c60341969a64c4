import type { Logger } from '../logger.ts';
import { listen } from '../postgres/listener.ts';
import type { Pool } from '../postgres/pool.ts';
import { WAKE_CHANNEL } from './schema.ts';

/** What a loop waits on between two passes over its work. */
export interface Wakeup {
  /** Resolves true when woken (now or since the last wait), false after `ms` (the safety net). */
  wait(ms: number): Promise<boolean>;
  /** Stops listening for this loop (the shared connection closes with the last one). */
  close(): void;
}

interface Hub {
  loops: Map<string, Set<Signal>>;
  users: number;
  stop: () => Promise<void>;
}

/** A flag a loop sleeps on: set while nobody waits, it makes the next wait return at once. */
class Signal {
  private woken = false;
  private waiter: (() => void) | null = null;

  fire(): void {
    this.woken = true;
    this.waiter?.();
  }

  wait(ms: number): Promise<boolean> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = null;
        const woken = this.woken;
        this.woken = false;
        resolve(woken);
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiter = done;
    });
  }
}

// One LISTEN connection per pool (per process, in practice) whatever the number of loops.
const hubs = new Map<Pool, Hub>();

function hubOf(pool: Pool, log: Logger): Hub {
  let hub = hubs.get(pool);
  if (hub) return hub;
  const loops = new Map<string, Set<Signal>>();
  const fireAll = () => loops.forEach((signals) => signals.forEach((s) => s.fire()));
  const stop = listen(pool, WAKE_CHANNEL, 'audit-service-wakeups', log, {
    // Whatever was committed while nobody listened is looked at now.
    onListening: fireAll,
    onLost: () => undefined,
    onNotification: (payload) => loops.get(payload)?.forEach((s) => s.fire()),
  });
  hub = { loops, users: 0, stop };
  hubs.set(pool, hub);
  return hub;
}

/**
 * A wake-up for one loop (the relay, a subscription, a worker of one task kind): woken by the
 * commits that notify `payload` (infra/wakeups/schema.ts). Waits still end after their timeout, so a notification lost with the connection is
 * only late, never missed.
 */
export function openWakeup(pool: Pool, log: Logger, payload: string): Wakeup {
  const hub = hubOf(pool, log);
  const signal = new Signal();
  let signals = hub.loops.get(payload);
  if (!signals) hub.loops.set(payload, (signals = new Set()));
  signals.add(signal);
  hub.users++;
  let closed = false;
  return {
    wait: (ms) => signal.wait(ms),
    close() {
      if (closed) return;
      closed = true;
      signal.fire();
      signals.delete(signal);
      if (--hub.users === 0) {
        hubs.delete(pool);
        void hub.stop();
      }
    },
  };
}
