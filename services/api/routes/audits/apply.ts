import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { findAudit } from '../../../../projections/audits/queries.ts';
import { loadAuditContext } from '../../../apply/auditContext.ts';
import { requestGeneration } from '../../../apply/requestGeneration.ts';
import { loadRevisions } from '../../../apply/revisions.ts';
import { presentRevision } from '../../../apply/revisionView.ts';
import { revisionOf } from '../../../domain/revision/decider.ts';
import { AppError } from '../../../../core/errors.ts';
import { ACCESS } from '../../auth/access.ts';
import { ApplyBody, ApplyItemsView, ApplyParams, RevisionParams, RevisionView } from '../../schemas/apply.ts';
import { authErrors, invalidRequestError, ok, rateLimitedError } from '../../schemas/common.ts';
import { API_VERSION } from '../../../../core/apiVersion.ts';
import { ErrorBody } from '../../schemas/error.ts';

const notFound = { 404: { ...ErrorBody, description: 'not_found: no such audit (or revision) on this account' } };
const notCompleted = { 409: { ...ErrorBody, description: 'not_completed: the audit is queued, running or in error' } };

type ApplyOptions = { pool: Pool; writer: boolean };

/** GET /audits/{id}/apply/items (spec 4.10): the items and the revisions, newest first. */
const applyItemsRoute: FastifyPluginAsyncTypebox<ApplyOptions> = async (app, { pool, writer }) => {
  app.get(
    '/audits/:id/apply/items',
    {
      config: { access: ACCESS['GET /audits/:id/apply/items'], rateLimit: 'read' },
      schema: {
        summary: 'The items that can be applied to an audited article, and its revisions (spec 4.10)',
        tags: ['apply'],
        security: [{ bearer: [] }],
        params: ApplyParams,
        response: {
          200: ok(ApplyItemsView, 'Items (2.5) and revisions newest first'),
          ...notFound,
          ...notCompleted,
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const ctx = await loadAuditContext(pool, request.auth!.accountId, request.params.id, writer);
      const { state, createdAt } = await loadRevisions(pool, ctx.auditId);
      return {
        id: ctx.row.jobId ?? ctx.auditId,
        auditId: ctx.auditId,
        cqs: ctx.row.cqs,
        items: ctx.items.map((p) => p.item),
        revisions: [...state.revisions].reverse().map((r) => ({
          revisionId: r.revisionId,
          status: r.status,
          selectedIds: [...r.selectedIds],
          createdAt: createdAt.get(r.revisionId)!,
          measuredCqs: r.measurement === 'completed' ? r.cqsAfter : null,
        })),
        apiVersion: API_VERSION,
      };
    },
  );
};

/** POST /audits/{id}/apply (spec 4.11): start a generation, or answer the same selection's. */
const startApplyRoute: FastifyPluginAsyncTypebox<ApplyOptions> = async (app, { pool, writer }) => {
  app.post(
    '/audits/:id/apply',
    {
      config: { access: ACCESS['POST /audits/:id/apply'], rateLimit: 'apply' },
      schema: {
        summary: 'Rewrite the audited article with the selected items (spec 4.11)',
        tags: ['apply'],
        security: [{ bearer: [] }],
        params: ApplyParams,
        body: ApplyBody,
        response: {
          200: ok(RevisionView, 'The same selection: finished (fromCache true) or still generating; no charge'),
          202: ok(RevisionView, 'A new generation started; 1 credit'),
          ...invalidRequestError,
          402: { ...ErrorBody, description: 'insufficient_credits' },
          ...notFound,
          ...notCompleted,
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request, reply) => {
      const accountId = request.auth!.accountId;
      const ctx = await loadAuditContext(pool, accountId, request.params.id, writer);
      const out = await requestGeneration(
        pool,
        ctx,
        accountId,
        request.body.selectedIds,
        request.body.force ?? false,
        request.id,
      );
      const view = await presentRevision(pool, out.revision, {
        jobId: ctx.row.jobId,
        auditId: ctx.auditId,
        createdAt: out.createdAt,
      });
      reply.code(out.fresh ? 202 : 200);
      return { ...view, fromCache: out.fromCache, apiVersion: API_VERSION };
    },
  );
};

/** GET /audits/{id}/apply/{revisionId} (spec 4.12): poll one revision. */
const applyRevisionRoute: FastifyPluginAsyncTypebox<ApplyOptions> = async (app, { pool }) => {
  app.get(
    '/audits/:id/apply/:revisionId',
    {
      // Not rate-limited (spec 8): no rateLimit window.
      config: { access: ACCESS['GET /audits/:id/apply/:revisionId'] },
      schema: {
        summary: 'Poll an apply revision (spec 4.12); not rate-limited',
        tags: ['apply'],
        security: [{ bearer: [] }],
        params: RevisionParams,
        response: { 200: ok(RevisionView, 'The revision (2.6)'), ...notFound, ...authErrors },
      },
    },
    async (request) => {
      const row = await findAudit(pool, request.auth!.accountId, request.params.id);
      if (!row) throw new AppError('not_found', 'Audit not found');
      const { state, createdAt } = await loadRevisions(pool, row.auditId);
      const r = revisionOf(state, request.params.revisionId);
      if (!r) throw new AppError('not_found', 'Revision not found');
      const view = await presentRevision(pool, r, {
        jobId: row.jobId,
        auditId: row.auditId,
        createdAt: createdAt.get(r.revisionId)!,
      });
      return { ...view, apiVersion: API_VERSION };
    },
  );
};

/** Apply (spec 4.10-4.12): the items, starting a generation, polling a revision. */
export const applyRoutes: FastifyPluginAsyncTypebox<{ pool: Pool; writer?: boolean }> = async (
  app,
  { pool, writer = false },
) => {
  await app.register(applyItemsRoute, { pool, writer });
  await app.register(startApplyRoute, { pool, writer });
  await app.register(applyRevisionRoute, { pool, writer });
};
