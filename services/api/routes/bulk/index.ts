import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { DEFAULT_BULK_INACTIVITY_SECONDS } from '../../../bulk/tasks.ts';
import { cancelBulk, loadOwnBulk } from '../../../bulk/cancelBulk.ts';
import { submitBulk } from '../../../bulk/submitBulk.ts';
import { parseIdempotencyKey } from '../../audits/idempotencyKey.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { ACCESS } from '../../auth/access.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { BulkState } from '../../../domain/bulk/decider.ts';
import { parseBulkSubmission } from '../../../bulk/parseBulk.ts';
import { presentBulk } from '../../bulk/present.ts';
import {
  BulkAccepted,
  BulkCancelView,
  BulkIdParams,
  BulkReplayed,
  type BulkReceipt,
  BulkView,
  SubmitBulkBody,
  SubmitBulkHeaders,
} from '../../schemas/bulk.ts';
import { authErrors, invalidRequestError, ok, rateLimitedError } from '../../schemas/common.ts';
import { API_VERSION } from '../../../../core/apiVersion.ts';
import { ErrorBody } from '../../schemas/error.ts';

const notFound = { 404: { ...ErrorBody, description: 'not_found: no such batch on this account' } };

type BulkOptions = { pool: Pool; settings: AuditApiSettings };

/** The 202 answer to a new batch: queued, with its URL count. */
const receiptOf = (state: BulkState) => ({
  id: state.bulkId!,
  status: 'queued' as const,
  urlCount: state.entries.length,
  project: state.project,
  apiVersion: API_VERSION,
});

/** The answer to a replayed Idempotency-Key: the batch as it is now. */
async function replayedBulk(pool: Pool, auth: AuthContext, state: BulkState) {
  // Entries carry scores and job ids, which only a key with audits:read may read (spec 5.4).
  if (!auth.scopes.includes('audits:read'))
    return { ...receiptOf(state), status: state.status as BulkReceipt['status'] };
  return presentBulk(pool, auth.accountId, state);
}

/** POST /audits/bulk (spec 4.4): submit a batch; a replayed Idempotency-Key answers the batch it made. */
const submitBulkRoute: FastifyPluginAsyncTypebox<BulkOptions> = async (app, { pool, settings }) => {
  app.post(
    '/audits/bulk',
    {
      config: { access: ACCESS['POST /audits/bulk'], rateLimit: 'submission' },
      // The parser gives the spec's exact messages (4.4.7); the schema documents the same rules.
      attachValidation: true,
      schema: {
        summary: 'Submit a batch of 1 to 100 URLs, audited one after another',
        tags: ['bulk'],
        security: [{ bearer: [] }],
        headers: SubmitBulkHeaders,
        body: SubmitBulkBody,
        response: {
          202: ok(BulkAccepted, 'Accepted: the batch, queued; one credit per entry reserved'),
          200: ok(
            BulkReplayed,
            'Idempotency-Key seen before: the existing batch as GET /audits/bulk/{id} shows it; to a key without audits:read, the 202 fields with the current status',
          ),
          ...invalidRequestError,
          402: { ...ErrorBody, description: 'insufficient_credits: the balance cannot cover one credit per entry' },
          409: {
            ...ErrorBody,
            description: 'bulk_in_progress: another batch runs on the account (blockingBulkId, blockingStatus)',
          },
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      const idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key']);
      const input = await parseBulkSubmission(request.body, {
        allowPrivateAddresses: settings.allowPrivateAddresses,
        resolver: settings.resolver,
      });
      if (request.validationError) throw request.validationError;
      const { state, replay } = await submitBulk(pool, {
        accountId: auth.accountId,
        input,
        idempotencyKey,
        inactivitySeconds: settings.bulkInactivitySeconds ?? DEFAULT_BULK_INACTIVITY_SECONDS,
        now: new Date(),
        correlationId: String(request.id),
      });
      if (!replay) return reply.status(202).send(receiptOf(state));
      return reply.status(200).send(await replayedBulk(pool, auth, state));
    },
  );
};

/** GET /audits/bulk/{id} (spec 4.5): one batch of the account. */
const getBulkRoute: FastifyPluginAsyncTypebox<BulkOptions> = async (app, { pool }) => {
  app.get(
    '/audits/bulk/:id',
    {
      config: { access: ACCESS['GET /audits/bulk/:id'], rateLimit: 'read' },
      schema: {
        summary: 'One batch: status, progress, counts and per-URL scores',
        tags: ['bulk'],
        security: [{ bearer: [] }],
        params: BulkIdParams,
        response: { 200: ok(BulkView, 'The batch (spec 2.4)'), ...notFound, ...authErrors, ...rateLimitedError },
      },
    },
    async (request) => {
      const { state } = await loadOwnBulk(pool, request.auth!.accountId, request.params.id);
      return presentBulk(pool, request.auth!.accountId, state);
    },
  );
};

/** POST /audits/bulk/{id}/cancel (spec 4.6): cancel a batch, refunding what never started. */
const cancelBulkRoute: FastifyPluginAsyncTypebox<BulkOptions> = async (app, { pool }) => {
  app.post(
    '/audits/bulk/:id/cancel',
    {
      config: { access: ACCESS['POST /audits/bulk/:id/cancel'], rateLimit: 'bulkCancel' },
      schema: {
        summary: 'Cancel a batch: the running audit stops, entries that never started are skipped and refunded',
        tags: ['bulk'],
        security: [{ bearer: [] }],
        params: BulkIdParams,
        response: {
          200: ok(BulkCancelView, 'Cancelled: the batch after the cancel, with creditsRefunded by this cancel'),
          ...notFound,
          409: { ...ErrorBody, description: 'already_finished: the batch had already finished' },
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const accountId = request.auth!.accountId;
      const { state, creditsRefunded } = await cancelBulk(
        pool,
        accountId,
        request.params.id,
        new Date(),
        String(request.id),
      );
      return { ...(await presentBulk(pool, accountId, state)), creditsRefunded };
    },
  );
};

/** The bulk routes (spec 4.4-4.6): submit a batch, read it, cancel it. */
export const bulkRoutes: FastifyPluginAsyncTypebox<BulkOptions> = async (app, options) => {
  await app.register(submitBulkRoute, options);
  await app.register(getBulkRoute, options);
  await app.register(cancelBulkRoute, options);
};
