import fp from 'fastify-plugin';
import type { RateLimitSettings } from '../../../infra/config.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import type { FastifyReply } from 'fastify';
import type { Logger } from '../../../infra/logger.ts';
import { freshWindow, type RateLimitHit } from '../../../infra/rateLimit/counter.ts';
import { createRateLimiter } from '../../../infra/rateLimit/limiter.ts';
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
 * The limit is exact across API processes (infra/rateLimit/limiter.ts): a process alone on the
 * database counts in memory (no round trip) and writes its counts to the table every second; as
 * soon as a second API process starts, the counts are handed to PostgreSQL and every process
 * counts there (one statement per batch of concurrent hits, counter.ts).
 */
export const rateLimitPlugin = fp<{ pool: Pool; limits: RateLimitSettings }>(
  async (app, { pool, limits }) => {
    const counter = createRateLimiter(pool, app.log as unknown as Logger);
    app.addHook('onClose', () => counter.close());
    // Ready once the process knows where it counts, so its first requests do not wait for it (at
    // most a few seconds: with the database away, requests wait until it answers).
    await Promise.race([counter.settled().catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
    app.addHook('onRequest', async (request, reply) => {
      const window = request.routeOptions.config.rateLimit;
      if (!window || !request.auth) return;
      const hit = await counter.hit({
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
        request.auth ? await counter.peek({ ...query, keyId: request.auth.keyId }) : freshWindow(query),
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
