import { pino, type Logger } from 'pino';

/** The one logger. LOG_LEVEL chooses the level; tests default to silent unless LOG_LEVEL is set. */
export const createLogger = (name: string, level = process.env.LOG_LEVEL ?? (process.env.TAP ? 'silent' : 'info')): Logger =>
  pino({ name, level, base: { service: 'audit-service', role: name } });

export type { Logger };
