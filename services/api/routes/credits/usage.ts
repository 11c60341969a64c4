import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { creditUsage } from '../../../../projections/ledger/queries.ts';
import { ACCESS } from '../../auth/access.ts';
import { authErrors, invalidRequestError, ok, rateLimitedError } from '../../schemas/common.ts';
import {
  CREDIT_USAGE_DEFAULT_LIMIT,
  CREDIT_USAGE_MAX_LIMIT,
  CreditUsageQuery,
  CreditUsageResponse,
} from '../../schemas/creditUsage.ts';
import { API_VERSION } from '../../../../core/apiVersion.ts';

/**
 * GET /credits/usage (spec 4.14, 2.8) from the ledger read model: balance and history from one
 * snapshot, so the sum of every entry's delta is `remaining`.
 */
export const creditUsageRoutes: FastifyPluginAsyncTypebox<{ pool: Pool }> = async (app, { pool }) => {
  app.get(
    '/credits/usage',
    {
      config: { access: ACCESS['GET /credits/usage'], rateLimit: 'read' },
      schema: {
        summary: 'Credit balance and ledger history, newest first',
        tags: ['credits'],
        security: [{ bearer: [] }],
        querystring: CreditUsageQuery,
        response: {
          200: ok(CreditUsageResponse, 'Balance and one page of history (spec 2.8)'),
          ...invalidRequestError,
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      // Like the job list (spec 8): too high a limit is clamped, not rejected.
      const limit = Math.min(request.query.limit ?? CREDIT_USAGE_DEFAULT_LIMIT, CREDIT_USAGE_MAX_LIMIT);
      const usage = await creditUsage(pool, request.auth!.accountId, page, limit);
      return {
        remaining: usage.remaining,
        used: usage.used,
        unlimited: usage.unlimited,
        history: usage.history,
        page,
        limit,
        total: usage.total,
        hasMore: page * limit < usage.total,
        apiVersion: API_VERSION,
      };
    },
  );
};
