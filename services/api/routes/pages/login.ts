import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { findApiKeyByHash, type ApiKeyOwner } from '../../../../projections/accounts/queries.ts';
import { closeSession, openSession } from '../../../../infra/sessions/sessions.ts';
import { signInPage } from '../../../reports/plainPages.ts';
import { hashApiKey } from '../../auth/apiKeys.ts';
import { sendPage } from './headers.ts';
import { clearLoginToken, isSameSiteLogin, loginToken } from './loginCsrf.ts';
import { LOGIN, LOGOUT, REPORT_PREFIX, SESSION_COOKIE, SESSION_TTL_SECONDS, type PageOptions } from './session.ts';

/** Only a report page of this site is a place to go back to after sign-in (no open redirect). */
const safeNext = (next: unknown): string =>
  typeof next === 'string' && next.startsWith(REPORT_PREFIX) && /^\/app\/audits\/[A-Za-z0-9_-]{1,100}$/.test(next)
    ? next
    : '';

/** The sign-in form, with a fresh login CSRF token (loginCsrf.ts) and, after a refusal, why. */
const signIn = (
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
  page: { status: number; next: string; error?: string },
) =>
  sendPage(
    reply,
    page.status,
    signInPage({ action: LOGIN, next: page.next, csrf: loginToken(request, reply, LOGIN, secure), error: page.error }),
    'same-origin',
  );

/** The owner of a typed API key, when the key is known, live and may read audits. */
async function ownerOfKey(pool: Pool, apiKey: unknown): Promise<ApiKeyOwner | null> {
  const key = typeof apiKey === 'string' ? apiKey.trim() : '';
  const owner = key ? await findApiKeyByHash(pool, hashApiKey(key)) : null;
  return owner && !owner.revoked && owner.scopes.includes('audits:read') ? owner : null;
}

/** Opens the owner's session and gives the browser its HttpOnly cookie. */
async function startSession(pool: Pool, reply: FastifyReply, owner: ApiKeyOwner, secure: boolean): Promise<void> {
  const session = await openSession(pool, {
    keyId: owner.keyId,
    accountId: owner.accountId,
    ttlSeconds: SESSION_TTL_SECONDS,
  });
  reply.setCookie(SESSION_COOKIE, session, {
    path: '/app',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: SESSION_TTL_SECONDS,
  });
}

/** GET /app/login: the sign-in form. */
const signInFormRoute: FastifyPluginAsync<PageOptions> = async (app, { secure }) => {
  app.get<{ Querystring: { next?: string } }>(LOGIN, { schema: { hide: true } }, async (request, reply) =>
    signIn(request, reply, secure, { status: 200, next: safeNext(request.query.next) }),
  );
};

/** POST /app/login: an API key of the account in, a session cookie out, then back to `next`. */
const signInRoute: FastifyPluginAsync<PageOptions> = async (app, { pool, settings, secure }) => {
  app.post<{ Body: { apiKey?: string; next?: string; csrf?: string } }>(
    LOGIN,
    { schema: { hide: true } },
    async (request, reply) => {
      const body = (request.body ?? {}) as { apiKey?: unknown; next?: unknown; csrf?: unknown };
      const next = safeNext(body.next);
      // Login CSRF: only this site's own form may sign a visitor in (loginCsrf.ts).
      if (!isSameSiteLogin(request, settings.publicBaseUrl, body.csrf)) {
        const error = 'This sign-in form came from another site or has expired. Please sign in again here.';
        return signIn(request, reply, secure, { status: 403, next, error });
      }
      const owner = await ownerOfKey(pool, body.apiKey);
      if (!owner) {
        const error = 'That key is unknown, revoked or lacks the audits:read scope.';
        return signIn(request, reply, secure, { status: 401, next, error });
      }
      await startSession(pool, reply, owner, secure);
      clearLoginToken(reply, LOGIN, secure);
      return reply
        .status(303)
        .header('cache-control', 'no-store')
        .redirect(next || LOGIN);
    },
  );
};

/** POST /app/logout: the session closed and its cookie cleared. */
const signOutRoute: FastifyPluginAsync<PageOptions> = async (app, { pool, secure }) => {
  app.post(LOGOUT, { schema: { hide: true } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await closeSession(pool, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/app', httpOnly: true, sameSite: 'lax', secure });
    return reply.status(303).redirect(LOGIN);
  });
};

/**
 * The smallest honest login: GET and POST /app/login, POST /app/logout (an API key of the account
 * in, an HttpOnly session cookie out), guarded against login CSRF (loginCsrf.ts).
 */
export const loginRoutes: FastifyPluginAsync<PageOptions> = async (app, options) => {
  await app.register(signInFormRoute, options);
  await app.register(signInRoute, options);
  await app.register(signOutRoute, options);
};
