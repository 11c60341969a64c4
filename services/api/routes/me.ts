import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { currentCredits } from '../account/currentCredits.ts';
import { ACCESS } from '../auth/access.ts';
import { authErrors, ok, rateLimitedError } from '../schemas/common.ts';
import { API_VERSION } from '../../../core/apiVersion.ts';
import { MeResponse } from '../schemas/me.ts';

/** GET /me (spec 4.1, 2.1): the calling key and its account. */
export const meRoutes: FastifyPluginAsyncTypebox<{ pool: Pool }> = async (app, { pool }) => {
  app.get(
    '/me',
    {
      config: { access: ACCESS['GET /me'], rateLimit: 'read' },
      schema: {
        summary: 'The account and API key making the request',
        tags: ['account'],
        security: [{ bearer: [] }],
        response: { 200: ok(MeResponse, 'The account (spec 2.1)'), ...authErrors, ...rateLimitedError },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const remaining = await currentCredits(pool, auth.accountId);
      // Spec 5.6: the secret also produces signatures, so only a key that may write sees it.
      const canWrite = auth.scopes.includes('audits:write');
      return {
        userId: auth.accountId, // the account is the user (AuthContext.accountId)
        email: auth.email,
        role: auth.role,
        auditCredits: remaining,
        apiKey: {
          id: auth.keyId,
          scopes: [...auth.scopes],
          ...(canWrite && auth.webhookSecret !== null ? { webhookSecret: auth.webhookSecret } : {}),
        },
        apiVersion: API_VERSION,
      };
    },
  );
};
