import fp from 'fastify-plugin';
import type { RateLimitSettings } from '../../../infra/config.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import type { FastifyReply } from 'fastify';
import { freshWindow, hitRateLimit, peekRateLimit, type RateLimitHit } from '../../../infra/rateLimit/counter.ts';
import { AppError } from '../../../core/errors.ts';

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
      setHeaders(reply, hit);
      if (hit.exceeded) {
        throw new AppError(
          'rate_limited',
          `Rate limit exceeded: ${hit.limit} requests per ${describe(limits.windowSeconds)}; retry in ${hit.retryAfter} s`,
          {
            retryAfter: hit.retryAfter,
          },
        );
      }
    });
    // Spec 8: the headers come back on EVERY response of a limited route, also when authentication
    // or the scope check refused the request before it was counted. A refused request is not
    // counted: a 403 shows its key's window as it stands; a 401 has no key, so it shows a fresh
    // window (the full limit, the current window's end).
    app.addHook('onSend', async (request, reply, payload) => {
      const window = request.routeOptions.config.rateLimit;
      if (!window || reply.hasHeader('X-RateLimit-Limit')) return payload;
      const query = { bucket: window, limit: limits[window], windowSeconds: limits.windowSeconds };
      setHeaders(
        reply,
        request.auth ? await peekRateLimit(pool, { ...query, keyId: request.auth.keyId }) : freshWindow(query),
      );
      return payload;
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);

const setHeaders = (reply: FastifyReply, hit: Pick<RateLimitHit, 'limit' | 'remaining' | 'resetAt'>): void => {
  reply.header('X-RateLimit-Limit', String(hit.limit));
  reply.header('X-RateLimit-Remaining', String(hit.remaining));
  reply.header('X-RateLimit-Reset', String(hit.resetAt));
};

const describe = (seconds: number): string => (seconds === 60 ? 'minute' : `${seconds} seconds`);
