import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { refuseResolvingToPrivate } from '../../../../infra/http/validateUrl.ts';
import { findAudit } from '../../../../projections/audits/queries.ts';
import { createAuditSubmitter } from '../../../pipeline/auditSubmitter.ts';
import { findShare } from '../../../../projections/shares/queries.ts';
import { AppError } from '../../../../core/errors.ts';
import { parseIdempotencyKey } from '../../audits/idempotencyKey.ts';
import { CONTENT_MAX_CHARS, CONTENT_MIN_CHARS, SUBMISSION_BODY_LIMIT } from '../../../pipeline/limits.ts';
import { parseAuditSubmission } from '../../../pipeline/parseSubmission.ts';
import { presentAudit, presentReceipt, presentResult } from '../../audits/present.ts';
import { serializeResult } from '../../audits/resultSerializer.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { ACCESS } from '../../auth/access.ts';
import { JobInProgress, ReplayedJob, SubmitAuditBody, SubmitAuditHeaders } from '../../schemas/audits.ts';
import { authErrors, invalidRequestError, ok, rateLimitedError } from '../../schemas/common.ts';
import { API_VERSION } from '../../../../core/apiVersion.ts';
import { ErrorBody } from '../../schemas/error.ts';

/**
 * POST /audits (spec 4.2): validate, then the one submission command (admission on the account
 * stream: 402 / 429; the request on the audit stream; the read model inline), decided together
 * with the submissions arriving at the same time. 202 with the queued
 * job; an Idempotency-Key seen before answers 200 with that job as it is now.
 */
export const submitAuditRoute: FastifyPluginAsyncTypebox<{ pool: Pool; settings: AuditApiSettings }> = async (
  app,
  { pool, settings },
) => {
  // Concurrent submissions share transactions (services/pipeline/auditSubmitter.ts).
  const submitAudit = createAuditSubmitter(pool);
  app.post(
    '/audits',
    {
      config: {
        access: ACCESS['POST /audits'],
        rateLimit: 'submission',
        oversizedBody: `The body is larger than any valid submission: content must be ${CONTENT_MIN_CHARS} to ${CONTENT_MAX_CHARS.toLocaleString('en-US')} characters long`,
      },
      bodyLimit: SUBMISSION_BODY_LIMIT,
      // The parser below gives every rule its own message; the schema documents the same rules and
      // stands behind the parser (a body it refuses that the parser let through is still a 400).
      attachValidation: true,
      schema: {
        summary: 'Submit one audit of a page (url) or of supplied text (content)',
        tags: ['audits'],
        security: [{ bearer: [] }],
        headers: SubmitAuditHeaders,
        body: SubmitAuditBody,
        response: {
          202: ok(JobInProgress, 'Accepted: the job, queued'),
          200: ok(
            ReplayedJob,
            'Idempotency-Key seen before: the existing job as GET /audits/{id} shows it; to a key without audits:read, in the 202 shape with its current status',
          ),
          ...invalidRequestError,
          402: { ...ErrorBody, description: 'insufficient_credits: no credit left (unlimited accounts never)' },
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      const idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key']);
      const policy = { allowPrivateAddresses: settings.allowPrivateAddresses, resolver: settings.resolver };
      const input = parseAuditSubmission(request.body, policy);
      if (request.validationError) throw request.validationError;
      if (input.url !== null) await refuseResolvingToPrivate('url', input.url, policy);
      if (input.webhookUrl !== null) await refuseResolvingToPrivate('webhookUrl', input.webhookUrl, policy);
      const submitted = await submitAudit({
        accountId: auth.accountId,
        source: 'api',
        request: input,
        idempotencyKey,
        bulkId: null,
        now: new Date(),
        correlationId: String(request.id),
      });
      if (submitted.replay) {
        // Spec 4.2: the first request binds; the answer is the existing job, whatever this body said.
        const row = await findAudit(pool, auth.accountId, submitted.auditId);
        if (!row)
          throw new AppError('internal_error', `audit ${submitted.auditId} is on its stream but not in the read model`);
        // The key is per account, the scopes per key (spec 5.4): a key that may not read audits
        // learns no more from a replay than its own 202 told it, the status aside.
        if (!auth.scopes.includes('audits:read')) return reply.status(200).send(presentReceipt(row));
        if (row.status !== 'completed') return reply.status(200).send(presentAudit(row, settings));
        const view = presentResult(row, settings, await findShare(pool, row.auditId));
        return reply.status(200).type('application/json; charset=utf-8').send(serializeResult(view));
      }
      return reply.status(202).send({
        id: submitted.jobId!,
        status: 'queued' as const,
        auditId: submitted.auditId,
        project: submitted.project,
        createdAt: submitted.createdAt,
        apiVersion: API_VERSION,
      });
    },
  );
};
