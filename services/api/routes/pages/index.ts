import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { STYLESHEET_PATH } from '../../../reports/layout.ts';
import { REPORT_CSS } from '../../../reports/styles.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { loginRoutes } from './login.ts';
import { ownerReportRoute } from './ownerReport.ts';
import { sharePageRoute } from './sharePage.ts';

/**
 * The pages a person opens in a browser, outside /api/v1 (no API key):
 * - GET /share/<token>: the public read-only report of one audit (spec 2.3 shareUrl), sharePage.ts;
 * - GET /app/audits/<auditId>: the same report for its signed-in owner (spec 2.2 reportUrl), ownerReport.ts;
 * - GET and POST /app/login, POST /app/logout: the smallest honest login (an API key of the
 *   account in, an HttpOnly session cookie out), guarded against login CSRF, login.ts;
 * - the report's stylesheet.
 */
export const reportPages =
  (deps: { pool: Pool; settings: AuditApiSettings }): FastifyPluginAsync =>
  async (app) => {
    const options = { ...deps, secure: deps.settings.publicBaseUrl.startsWith('https://') };
    await app.register(cookie);
    await app.register(formbody);

    app.get(STYLESHEET_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(REPORT_CSS),
    );
    await app.register(sharePageRoute, options);
    await app.register(loginRoutes, options);
    await app.register(ownerReportRoute, options);
  };
