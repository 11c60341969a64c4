import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { listAudits } from '../../../../projections/audits/queries.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, parseListFilters } from '../../audits/listQuery.ts';
import { presentRow } from '../../audits/present.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { ACCESS } from '../../auth/access.ts';
import { ListAuditsQuery, ListAuditsResponse } from '../../schemas/audits.ts';
import { authErrors, invalidRequestError, ok, rateLimitedError } from '../../schemas/common.ts';
import { API_VERSION } from '../../../../core/apiVersion.ts';

/** GET /audits (spec 4.9): the account's jobs, newest first, with every filter. */
export const listAuditsRoute: FastifyPluginAsyncTypebox<{ pool: Pool; settings: AuditApiSettings }> = async (
  app,
  { pool, settings },
) => {
  app.get(
    '/audits',
    {
      config: { access: ACCESS['GET /audits'], rateLimit: 'read' },
      // Filters get their messages from parseListFilters; page and limit from the schema (as in
      // GET /credits/usage), reported after the filters.
      attachValidation: true,
      schema: {
        summary: 'The job list, newest first',
        tags: ['audits'],
        security: [{ bearer: [] }],
        querystring: ListAuditsQuery,
        response: {
          200: ok(ListAuditsResponse, 'One page of jobs (spec 2.2 fields)'),
          ...invalidRequestError,
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const filters = parseListFilters(request.query as Record<string, unknown>);
      if (request.validationError) throw request.validationError;
      const page = request.query.page ?? 1;
      // Spec 4.9 / 8: a higher limit is clamped, not rejected.
      const limit = Math.min(request.query.limit ?? LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT);
      const { rows, total } = await listAudits(pool, request.auth!.accountId, filters, page, limit);
      return {
        data: rows.map((r) => presentRow(r, settings)),
        page,
        limit,
        total,
        hasMore: page * limit < total,
        apiVersion: API_VERSION,
      };
    },
  );
};
