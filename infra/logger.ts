import { pino, type Logger } from 'pino';

/**
 * The one logger. LOG_LEVEL chooses the level; tests default to silent unless LOG_LEVEL is set.
 * `fd` sends it elsewhere than stdout (the admin CLI keeps stdout for its JSON: fd 2).
 */
export const createLogger = (
  name: string,
  level = process.env.LOG_LEVEL ?? (process.env.TAP ? 'silent' : 'info'),
  fd?: number,
): Logger => {
  const options = { name, level, base: { service: 'audit-service', role: name } };
  return fd === undefined ? pino(options) : pino(options, pino.destination({ fd, sync: true }));
};

export type { Logger };
