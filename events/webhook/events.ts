import { Type } from '@sinclair/typebox';
import { Str, NonEmpty, Nullable, literals } from '../schemaTypes.ts';
import { defineEvent, type EventOf } from '../define.ts';
import { streamIdOf, type StreamId } from '../streamId.ts';

/**
 * The webhook delivery stream (`webhook-<jobId>`): one completion webhook of one job (spec 6), from
 * the moment its audit ended to delivered or abandoned. Every attempt is an event, so the operator
 * sees what the receiver answered (`npm run -s admin -- webhooks list --job JOB_ID`). The audit
 * stream never hears of it: a receiver failure never changes the audit or its credit (spec 6.6).
 */

const Attempt = Type.Integer({ minimum: 1 });

export const WEBHOOK_EVENT_NAMES = ['audit.completed', 'audit.failed'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/** Why an attempt got no HTTP answer: the guard's refusals (infra/http/guardError.ts), or the exchange itself. */
export const ATTEMPT_ERRORS = [
  'timeout',
  'network',
  'invalid_url',
  'scheme',
  'credentials',
  'port',
  'blocked_address',
  'dns_failed',
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

export const ABANDON_REASONS = [
  'redirect',
  'client_error',
  'attempts_exhausted',
  'refused_address',
  'no_signing_secret',
  'worker_failed',
] as const;
export type AbandonReason = (typeof ABANDON_REASONS)[number];

/**
 * The audit ended and its job asked for a webhook. `body` is the exact JSON sent on every attempt
 * ({event, job, apiVersion}); only the signature's timestamp differs between attempts.
 */
export const WebhookScheduled = defineEvent(
  'WebhookScheduled',
  'webhook',
  Type.Object({
    jobId: NonEmpty,
    auditId: NonEmpty,
    event: literals(WEBHOOK_EVENT_NAMES),
    url: NonEmpty,
    body: NonEmpty,
  }),
);

/**
 * One POST and what came of it: an HTTP status, or an error code with its detail when there was no
 * answer. `retryInMs` is the pause before the next attempt (spec 6.3: 1 s, then 4 s), null when
 * there is none.
 */
export const WebhookAttempted = defineEvent(
  'WebhookAttempted',
  'webhook',
  Type.Object({
    attempt: Attempt,
    status: Nullable(Type.Integer()),
    error: Nullable(literals(ATTEMPT_ERRORS)),
    detail: Nullable(Str),
    durationMs: Type.Integer({ minimum: 0 }),
    retryInMs: Nullable(Type.Integer({ minimum: 0 })),
  }),
);

/** The receiver answered 2xx: nothing more is sent. */
export const WebhookDelivered = defineEvent(
  'WebhookDelivered',
  'webhook',
  Type.Object({ attempt: Attempt, status: Type.Integer() }),
);

/** No more attempts, and why (`attempts` made, 0 when none could be). */
export const WebhookAbandoned = defineEvent(
  'WebhookAbandoned',
  'webhook',
  Type.Object({ reason: literals(ABANDON_REASONS), attempts: Type.Integer({ minimum: 0 }) }),
);

export type WebhookScheduled = EventOf<typeof WebhookScheduled>;
export type WebhookAttempted = EventOf<typeof WebhookAttempted>;
export type WebhookDelivered = EventOf<typeof WebhookDelivered>;
export type WebhookAbandoned = EventOf<typeof WebhookAbandoned>;
export type WebhookEvent = WebhookScheduled | WebhookAttempted | WebhookDelivered | WebhookAbandoned;

export const webhookEvents = [WebhookScheduled, WebhookAttempted, WebhookDelivered, WebhookAbandoned];

/** One delivery stream per job: X-Service-Delivery is the job id too (spec 6). */
export const webhookStreamId = (jobId: string): StreamId<'webhook'> => streamIdOf('webhook', jobId);
