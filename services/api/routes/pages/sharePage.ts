import type { FastifyPluginAsync } from 'fastify';
import { findAudit } from '../../../../projections/audits/queries.ts';
import { findLiveShare } from '../../../../projections/shares/queries.ts';
import { SHARE_TOKEN_PATTERN } from '../../../share/links.ts';
import { langParam } from '../../../reports/labels.ts';
import { notFoundPage } from '../../../reports/plainPages.ts';
import { reportPage } from '../../../reports/reportPage.ts';
import { presentResult } from '../../audits/present.ts';
import { sendPage } from './headers.ts';
import type { PageOptions } from './session.ts';

/** GET /share/<token>: the public read-only report of one audit (spec 2.3 shareUrl). */
export const sharePageRoute: FastifyPluginAsync<PageOptions> = async (app, { pool, settings }) => {
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
};
