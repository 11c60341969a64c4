import type { FastifyPluginAsync } from 'fastify';
import { findAudit } from '../../../../projections/audits/queries.ts';
import { findShare } from '../../../../projections/shares/queries.ts';
import { findSession } from '../../../../infra/sessions/sessions.ts';
import { notFoundPage, statusPage } from '../../../reports/plainPages.ts';
import { reportPage } from '../../../reports/reportPage.ts';
import { presentResult } from '../../audits/present.ts';
import { sendPage } from './headers.ts';
import { LOGIN, LOGOUT, REPORT_PREFIX, SESSION_COOKIE, type PageOptions } from './session.ts';

/** GET /app/audits/<auditId>: the report for its signed-in owner (spec 2.2 reportUrl). */
export const ownerReportRoute: FastifyPluginAsync<PageOptions> = async (app, { pool, settings }) => {
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
