import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import secureJson from 'secure-json-parse';
import { auditStreamId } from '../../../../events/audit/events.ts';
import { loadStream, transact } from '../../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { findAudit, type AuditRow } from '../../../../projections/audits/queries.ts';
import { auditDecider } from '../../../domain/audit/decider.ts';
import type { ExpiryRequest } from '../../../domain/share/decider.ts';
import { shareLangOf, shareUrlOf, tokenHashesOf } from '../../../share/links.ts';
import { findShare } from '../../../../projections/shares/queries.ts';
import { runShareCommand } from '../../../share/shareCommand.ts';
import { AppError } from '../../../../core/errors.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { ACCESS } from '../../auth/access.ts';
import { AuditIdParams } from '../../schemas/audits.ts';
import { authErrors, invalidRequestError, ok, rateLimitedError } from '../../schemas/common.ts';
import { API_VERSION } from '../../../../core/apiVersion.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { RevokeResponse, ShareBody, ShareResponse } from '../../schemas/share.ts';

const DAY_MS = 86_400_000;

const notFound = {
  404: {
    ...ErrorBody,
    description: 'not_found: no such job on this account, or an audit created in the app (shared in the app)',
  },
} as const;
const notCompleted = {
  409: { ...ErrorBody, description: 'not_completed: the audit is queued, running or in error' },
} as const;

/**
 * The job the share routes act on: one of the account's API audits, by job id (spec 4.7) or audit
 * id. An audit created in the app has no job and is shared in the app (spec 4.7): 404, saying so.
 */
async function jobOf(pool: Pool, accountId: string, id: string): Promise<AuditRow & { jobId: string }> {
  const row = await findAudit(pool, accountId, id);
  if (!row) throw new AppError('not_found', 'Audit not found');
  if (row.source === 'panel' || row.jobId === null) {
    throw new AppError(
      'not_found',
      'No job with this id: this audit was created in the app and is shared in the app, not through the API',
    );
  }
  return row as AuditRow & { jobId: string };
}

const expiryOf = (body: ShareBody): ExpiryRequest =>
  !('shareExpiresInDays' in body) || body.shareExpiresInDays === undefined
    ? { kind: 'omitted' }
    : body.shareExpiresInDays === null
      ? { kind: 'none' }
      : { kind: 'days', days: body.shareExpiresInDays };

type ShareOptions = { pool: Pool; settings: AuditApiSettings };

/**
 * Shares the job's report in one transaction: the audit's status is read from its own stream, the
 * share decided on the share stream, and the token read back from the inline read model.
 */
async function shareReport(
  pool: Pool,
  job: AuditRow,
  command: { accountId: string; correlationId: string; dayMs: number; expiry: ExpiryRequest },
) {
  return transact(pool, async (tx) => {
    const audit = await loadStream(tx, auditDecider, auditStreamId(job.auditId));
    const now = new Date();
    const { state } = await runShareCommand(tx, {
      accountId: command.accountId,
      auditId: job.auditId,
      now,
      correlationId: command.correlationId,
      command: {
        type: 'ShareReport',
        data: {
          auditId: job.auditId,
          now,
          dayMs: command.dayMs,
          tokenHashFor: tokenHashesOf(job.auditId),
          lang: shareLangOf(audit.state.status === 'None' ? null : audit.state.language),
          auditStatus: audit.state.status,
          expiry: command.expiry,
        },
      },
    });
    // The inline read model has the link already, and gives its token (derived, or an old one moved out of the log).
    return { state, token: (await findShare(tx, job.auditId))?.token ?? null };
  });
}

/** POST /audits/{id}/share (spec 4.7): the active link, issued or kept. */
const shareReportRoute: FastifyPluginAsyncTypebox<ShareOptions> = async (app, { pool, settings }) => {
  const dayMs = (settings.shareDaySeconds ?? DAY_MS / 1000) * 1000;
  app.post(
    '/audits/:id/share',
    {
      config: { access: ACCESS['POST /audits/:id/share'], rateLimit: 'share' },
      schema: {
        summary: 'Share a completed report through a public link (no credit)',
        tags: ['share'],
        security: [{ bearer: [] }],
        params: AuditIdParams,
        body: ShareBody,
        response: {
          200: ok(ShareResponse, 'The active link'),
          ...invalidRequestError,
          ...notFound,
          ...notCompleted,
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const accountId = request.auth!.accountId;
      const job = await jobOf(pool, accountId, request.params.id);
      const { state, token } = await shareReport(pool, job, {
        accountId,
        correlationId: String(request.id),
        dayMs,
        expiry: expiryOf(request.body),
      });
      if (state.status !== 'Active' || token === null)
        throw new AppError(
          'internal_error',
          `share of ${job.auditId} is ${state.status} after a POST, token known: ${token !== null}`,
        );
      return {
        id: job.jobId,
        auditId: job.auditId,
        shareUrl: shareUrlOf(settings.publicBaseUrl, token, state.lang),
        expiresAt: state.expiresAt,
        apiVersion: API_VERSION,
      };
    },
  );
};

/** DELETE /audits/{id}/share (spec 4.8): revoke the link for good; idempotent. */
const revokeShareRoute: FastifyPluginAsyncTypebox<ShareOptions> = async (app, { pool }) => {
  app.delete(
    '/audits/:id/share',
    {
      config: { access: ACCESS['DELETE /audits/:id/share'], rateLimit: 'share' },
      schema: {
        summary: 'Revoke the public link for good (idempotent)',
        tags: ['share'],
        security: [{ bearer: [] }],
        params: AuditIdParams,
        response: {
          200: ok(RevokeResponse, 'Revoked (or nothing to revoke)'),
          ...notFound,
          ...notCompleted,
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const job = await jobOf(pool, auth.accountId, request.params.id);
      await transact(pool, async (tx) => {
        const audit = await loadStream(tx, auditDecider, auditStreamId(job.auditId));
        await runShareCommand(tx, {
          accountId: auth.accountId,
          auditId: job.auditId,
          now: new Date(),
          correlationId: String(request.id),
          command: { type: 'RevokeShare', data: { auditId: job.auditId, auditStatus: audit.state.status } },
        });
      });
      return { id: job.jobId, auditId: job.auditId, shareUrl: null, apiVersion: API_VERSION };
    },
  );
};

/**
 * POST and DELETE /audits/{id}/share (spec 4.7, 4.8): decided on the audit's share stream
 * (services/domain/share) against the audit's status read from its own stream in the same
 * transaction, so a completion the read model has not caught up with already counts. No credit.
 * Both count in the `share` rate window (spec 8).
 */
export const shareRoutes: FastifyPluginAsyncTypebox<ShareOptions> = async (app, options) => {
  // The body is optional (spec 4.7: "no body shares without expiry"), also with a JSON content type.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, secureJson.parse(text));
    } catch {
      done(new AppError('invalid_request', 'Body is not valid JSON'), undefined);
    }
  });
  // No body at all is "no body"; a JSON null is a body that is not an object, and fails validation.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = {};
  });
  await app.register(shareReportRoute, options);
  await app.register(revokeShareRoute, options);
};
