import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '../../../events/account/index.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import type { Logger } from '../../../infra/logger.ts';
import { AppError } from '../../../core/errors.ts';
import type { RouteAccess } from '../auth/access.ts';
import { hashApiKey } from '../auth/apiKeys.ts';
import { createKeyCache, type KeyCache } from '../auth/keyCache.ts';

/** Who is calling: the key and the account that owns it. Everything a route reads is this account's. */
export interface AuthContext {
  keyId: string;
  /**
   * The account, which is the user (one user, one account): a `usr_` id, shown as `userId` by GET
   * /me (spec 2.1). The code says account because credits, keys and audits hang off it.
   */
  accountId: string;
  scopes: readonly ApiKeyScope[];
  email: string;
  role: string;
  /** Null only before `secrets migrate` moved an old account's secret out of the log. */
  webhookSecret: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api/v1 route (see auth/access.ts); a route without it refuses to register. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Set on every route whose access is not `public`. */
    auth: AuthContext | null;
  }
}

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** Spec 5.3: one code and one answer for a missing, unknown or revoked key (no hint which). */
const invalidKey = (message: string) => new AppError('invalid_api_key', message);

/**
 * Authentication and scopes (spec 5) for the routes of the scope it is registered in. Runs in
 * onRequest, before the body is read: an unauthenticated caller learns nothing about validation.
 * Keys are cached per process (auth/keyCache.ts) and dropped by the NOTIFY of a revocation, so a
 * revocation holds everywhere within moments of its commit.
 */
export const authPlugin = fp<{ pool: Pool }>(
  async (app, { pool }) => {
    const keys = createKeyCache(pool, app.log as unknown as Logger);
    app.addHook('onClose', () => keys.close());
    app.decorateRequest('auth', null);
    app.addHook('onRoute', (route) => {
      if (!route.config?.access)
        throw new Error(`route ${route.method} ${route.url} declares no access (config.access)`);
    });
    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config.access;
      if (access === 'public') return;
      request.auth = await authenticate(keys, request);
      if (access !== 'anyKey' && access !== undefined && !request.auth.scopes.includes(access)) {
        throw new AppError('insufficient_scope', `This API key lacks the ${access} scope`, { requiredScope: access });
      }
    });
  },
  { name: 'auth' },
);

async function authenticate(keys: KeyCache, request: FastifyRequest): Promise<AuthContext> {
  const header = request.headers.authorization;
  if (!header) throw invalidKey('Missing API key: send Authorization: Bearer <API_KEY>');
  const match = BEARER.exec(header);
  if (!match) throw invalidKey('Malformed Authorization header: expected Bearer <API_KEY>');
  const owner = await keys.find(hashApiKey(match[1]!));
  if (!owner || owner.revoked) throw invalidKey('Invalid or revoked API key');
  return {
    keyId: owner.keyId,
    accountId: owner.accountId,
    scopes: owner.scopes,
    email: owner.email,
    role: owner.role,
    webhookSecret: owner.webhookSecret,
  };
}
