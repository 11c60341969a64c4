import fp from 'fastify-plugin';
import type { RateLimitSettings } from '../../../infra/config.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { hitRateLimit } from '../../../infra/rateLimit/counter.ts';
import { AppError } from '../../shared/errors.ts';

/** A rate-limit window (spec 8): each counts separately per API key. */
export type RateWindow = Exclude<keyof RateLimitSettings, 'windowSeconds'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The window the route counts in; none: not limited (e.g. the apply poll, spec 4.12). */
    rateLimit?: RateWindow;
  }
}

/**
 * Rate limits as a route option: `config: { rateLimit: 'share' }`. Register after the auth plugin
 * (its hook must run after authentication: the budget is the key's). Every response of a limited
 * route carries X-RateLimit-Limit/Remaining/Reset (spec 8), a 429 also Retry-After and retryAfter.
 * Counters live in PostgreSQL (infra/rateLimit), so the limit holds across API processes.
 */
export const rateLimitPlugin = fp<{ pool: Pool; limits: RateLimitSettings }>(
  async (app, { pool, limits }) => {
    app.addHook('onRequest', async (request, reply) => {
      const window = request.routeOptions.config.rateLimit;
      if (!window || !request.auth) return;
      const hit = await hitRateLimit(pool, {
        keyId: request.auth.keyId,
        bucket: window,
        limit: limits[window],
        windowSeconds: limits.windowSeconds,
      });
      reply.header('X-RateLimit-Limit', String(hit.limit));
      reply.header('X-RateLimit-Remaining', String(hit.remaining));
      reply.header('X-RateLimit-Reset', String(hit.resetAt));
      if (hit.exceeded) {
        throw new AppError('rate_limited', `Rate limit exceeded: ${hit.limit} requests per ${describe(limits.windowSeconds)}; retry in ${hit.retryAfter} s`, {
          retryAfter: hit.retryAfter,
        });
      }
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);

const describe = (seconds: number): string => (seconds === 60 ? 'minute' : `${seconds} seconds`);
