import type { WebhookAttempted, WebhookScheduled } from '../../../events/webhook/events.ts';
import type { Command } from '../../../core/decider.ts';

/** The job's audit ended and it asked for a webhook (a replayed event schedules nothing new). */
export type ScheduleWebhook = Command<'ScheduleWebhook', WebhookScheduled['data']>;
/** What one POST got back; the decider adds the pause and the outcome. */
export type RecordAttempt = Command<'RecordAttempt', Omit<WebhookAttempted['data'], 'retryInMs'>>;
/** Ends a delivery that cannot be attempted: no secret to sign with, or a worker that keeps dying. */
export type AbandonWebhook = Command<'AbandonWebhook', { reason: 'no_signing_secret' | 'worker_failed' }>;

export type WebhookCommand = ScheduleWebhook | RecordAttempt | AbandonWebhook;
