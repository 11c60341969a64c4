import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { findApiKeyByHash } from '../../../../projections/accounts/queries.ts';
import { findAudit } from '../../../../projections/audits/queries.ts';
import { findLiveShare, findShare } from '../../../../projections/shares/queries.ts';
import { closeSession, findSession, openSession } from '../../../../infra/sessions/sessions.ts';
import { SHARE_TOKEN_PATTERN } from '../../../share/links.ts';
import { langParam } from '../../../reports/labels.ts';
import { STYLESHEET_PATH } from '../../../reports/layout.ts';
import { notFoundPage, signInPage, statusPage } from '../../../reports/plainPages.ts';
import { reportPage } from '../../../reports/reportPage.ts';
import { REPORT_CSS } from '../../../reports/styles.ts';
import { hashApiKey } from '../../auth/apiKeys.ts';
import { presentResult } from '../../audits/present.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { sendPage } from './headers.ts';
import { clearLoginToken, isSameSiteLogin, loginToken } from './loginCsrf.ts';

export const SESSION_COOKIE = 'audit_session';
const SESSION_TTL_SECONDS = 12 * 3600;
const LOGIN = '/app/login';
const LOGOUT = '/app/logout';
const REPORT_PREFIX = '/app/audits/';

/** Only a report page of this site is a place to go back to after sign-in (no open redirect). */
const safeNext = (next: unknown): string =>
  typeof next === 'string' && next.startsWith(REPORT_PREFIX) && /^\/app\/audits\/[A-Za-z0-9_-]{1,100}$/.test(next)
    ? next
    : '';

/**
 * The pages a person opens in a browser, outside /api/v1 (no API key):
 * - GET /share/<token>: the public read-only report of one audit (spec 2.3 shareUrl);
 * - GET /app/audits/<auditId>: the same report for its signed-in owner (spec 2.2 reportUrl);
 * - GET and POST /app/login, POST /app/logout: the smallest honest login (an API key of the
 *   account in, an HttpOnly session cookie out), guarded against login CSRF (loginCsrf.ts).
 */
export const reportPages =
  (deps: { pool: Pool; settings: AuditApiSettings }): FastifyPluginAsync =>
  async (app) => {
    const { pool, settings } = deps;
    const secure = settings.publicBaseUrl.startsWith('https://');
    await app.register(cookie);
    await app.register(formbody);

    app.get(STYLESHEET_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(REPORT_CSS),
    );

    app.get<{ Params: { token: string }; Querystring: { lang?: string } }>(
      '/share/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const token = request.params.token;
        const share = SHARE_TOKEN_PATTERN.test(token) ? await findLiveShare(pool, token) : null;
        const row = share ? await findAudit(pool, share.accountId, share.auditId) : null;
        // Unknown, expired and revoked links: one page, one status, nothing to tell them apart.
        if (!share || !row || row.status !== 'completed')
          return sendPage(reply, 404, notFoundPage(langParam(request.query.lang)));
        const result = presentResult(row, settings, share);
        return sendPage(reply, 200, reportPage(result, { lang: share.lang }));
      },
    );

    const signIn = (request: FastifyRequest, reply: FastifyReply, status: number, next: string, error?: string) =>
      sendPage(
        reply,
        status,
        signInPage({ action: LOGIN, next, csrf: loginToken(request, reply, LOGIN, secure), error }),
        'same-origin',
      );

    app.get<{ Querystring: { next?: string } }>(LOGIN, { schema: { hide: true } }, async (request, reply) =>
      signIn(request, reply, 200, safeNext(request.query.next)),
    );

    app.post<{ Body: { apiKey?: string; next?: string; csrf?: string } }>(
      LOGIN,
      { schema: { hide: true } },
      async (request, reply) => {
        const body = (request.body ?? {}) as { apiKey?: unknown; next?: unknown; csrf?: unknown };
        const next = safeNext(body.next);
        // Login CSRF: only this site's own form may sign a visitor in (loginCsrf.ts).
        if (!isSameSiteLogin(request, settings.publicBaseUrl, body.csrf)) {
          return signIn(
            request,
            reply,
            403,
            next,
            'This sign-in form came from another site or has expired. Please sign in again here.',
          );
        }
        const key = typeof body.apiKey === 'string' ? body.apiKey.trim() : '';
        const owner = key ? await findApiKeyByHash(pool, hashApiKey(key)) : null;
        if (!owner || owner.revoked || !owner.scopes.includes('audits:read')) {
          return signIn(request, reply, 401, next, 'That key is unknown, revoked or lacks the audits:read scope.');
        }
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
        clearLoginToken(reply, LOGIN, secure);
        return reply
          .status(303)
          .header('cache-control', 'no-store')
          .redirect(next || LOGIN);
      },
    );

    app.post(LOGOUT, { schema: { hide: true } }, async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await closeSession(pool, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/app', httpOnly: true, sameSite: 'lax', secure });
      return reply.status(303).redirect(LOGIN);
    });

    app.get<{ Params: { auditId: string } }>(
      `${REPORT_PREFIX}:auditId`,
      { schema: { hide: true } },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        const session = token ? await findSession(pool, token) : null;
        if (!session)
          return reply
            .status(303)
            .header('cache-control', 'no-store')
            .redirect(`${LOGIN}?next=${encodeURIComponent(request.url.split('?')[0]!)}`);
        // Another account's audit is as unknown as one that never existed.
        const row = await findAudit(pool, session.accountId, request.params.auditId);
        if (!row) return sendPage(reply, 404, notFoundPage('en'));
        if (row.status !== 'completed') {
          return sendPage(
            reply,
            200,
            statusPage({ status: row.status, message: row.errorMessage, signOutPath: LOGOUT, email: session.email }),
          );
        }
        const result = presentResult(row, settings, await findShare(pool, row.auditId));
        return sendPage(
          reply,
          200,
          reportPage(result, {
            lang: result.input.language === 'pl' ? 'pl' : 'en',
            owner: { email: session.email, signOutPath: LOGOUT },
          }),
        );
      },
    );
  };
