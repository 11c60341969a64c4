import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { findShare } from '../../../../projections/shares/queries.ts';
import { AppError } from '../../../../core/errors.ts';
import type { Logger } from '../../../../infra/logger.ts';
import { createAuditCache } from '../../audits/auditCache.ts';
import { createAuditReader } from '../../audits/auditReader.ts';
import { presentAudit, presentResult } from '../../audits/present.ts';
import { serializeJob, serializeResult } from '../../audits/resultSerializer.ts';
import type { AuditRow } from '../../../../projections/audits/queries.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { ACCESS } from '../../auth/access.ts';
import { AuditIdParams, AuditView } from '../../schemas/audits.ts';
import { authErrors, ok, rateLimitedError } from '../../schemas/common.ts';
import { ErrorBody } from '../../schemas/error.ts';

/** GET /audits/{id} (spec 4.3): by job id or audit id, in the shape of its status; not the account's → 404. */
export const getAuditRoute: FastifyPluginAsyncTypebox<{ pool: Pool; settings: AuditApiSettings }> = async (
  app,
  { pool, settings },
) => {
  // Polled jobs from a NOTIFY-invalidated cache, the rest coalesced into shared statements.
  const audits = createAuditCache(pool, app.log as unknown as Logger, createAuditReader(pool));
  app.addHook('onClose', () => audits.close());
  // A cached row is the same object until its audit changes: its body is written once.
  const bodies = new WeakMap<AuditRow, string>();
  app.get(
    '/audits/:id',
    {
      config: { access: ACCESS['GET /audits/:id'], rateLimit: 'read' },
      schema: {
        summary: 'One audit: queued/running, error, or the full AuditResultV1 when completed',
        tags: ['audits'],
        security: [{ bearer: [] }],
        params: AuditIdParams,
        response: {
          200: ok(AuditView, 'The job in the shape of its status (spec 4.3)'),
          404: { ...ErrorBody, description: 'not_found: no such audit on this account' },
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request, reply) => {
      const row = await audits.find(request.auth!.accountId, request.params.id);
      // The same answer for an id that never existed and for another account's: no hint which.
      if (!row) throw new AppError('not_found', 'Audit not found');
      if (row.status !== 'completed') {
        let body = bodies.get(row);
        if (body === undefined) {
          const view = presentAudit(row, settings);
          if (view.status === 'completed') throw new AppError('internal_error', 'a job view of a completed audit');
          bodies.set(row, (body = serializeJob(view)));
        }
        return reply.type('application/json; charset=utf-8').send(body);
      }
      const view = presentResult(row, settings, await findShare(pool, row.auditId));
      return reply.type('application/json; charset=utf-8').send(serializeResult(view));
    },
  );
};
