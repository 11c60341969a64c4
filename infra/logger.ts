import { pino, type Logger } from 'pino';

// A lost database connection: what every role sees once PostgreSQL stops (57P01 admin shutdown,
// 57P03 shutting down, a closed socket, a pool already ended).
const CONNECTION_LOST =
  /terminating connection|shutting down|Connection terminated|ECONNREFUSED|ECONNRESET|EPIPE|pool after calling end|Client was closed|not queryable/i;

let stopping = false;
const CONNECTION_LOSS_GRACE_MS = 1000;

/**
 * The process is stopping: from now on a warning or error about a lost database connection is
 * expected (a terminal's Ctrl-C reaches the embedded PostgreSQL too) and is not logged; nor is
 * one reported in the second before.
 */
export const expectConnectionLoss = (): void => {
  stopping = true;
};

export const isConnectionLoss = (e: unknown): boolean => {
  const err = e as { code?: unknown; message?: unknown } | null;
  return (
    typeof err === 'object' &&
    err !== null &&
    (err.code === '57P01' || err.code === '57P03' || CONNECTION_LOST.test(String(err.message ?? '')))
  );
};

/**
 * The one logger. LOG_LEVEL chooses the level; tests default to silent unless LOG_LEVEL is set.
 * `fd` sends it elsewhere than stdout (the admin CLI keeps stdout for its JSON: fd 2).
 */
export const createLogger = (
  name: string,
  level = process.env.LOG_LEVEL ?? (process.env.TAP ? 'silent' : 'info'),
  fd?: number,
): Logger => {
  const options = {
    name,
    level,
    base: { service: 'audit-service', role: name },
    hooks: {
      // Children share the hook, so this holds for every role's logger.
      logMethod(this: Logger, args: Parameters<Logger['info']>, method: Logger['info'], level: number) {
        const first = args[0] as { err?: unknown; code?: unknown } | undefined;
        if (level < 40 || !isConnectionLoss(first?.err ?? first)) return method.apply(this, args);
        // A signal sent to the whole group reaches PostgreSQL as fast as this process, so its
        // ended connections may be reported a moment before the signal is handled: a lost
        // connection is logged a second late, and not at all if the process is stopping by then.
        if (!stopping)
          setTimeout(() => {
            if (!stopping) method.apply(this, args);
          }, CONNECTION_LOSS_GRACE_MS).unref();
      },
    },
  };
  // Written synchronously: an asynchronous stream's last lines could be overtaken, or lost, by the
  // synchronous flush at process.exit (a stop's "stopped …" lines came out of order), and its
  // flush(cb) does not wait for a write in flight.
  return pino(options, pino.destination({ fd: fd ?? 1, sync: true }));
};

export type { Logger };
