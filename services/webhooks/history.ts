import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import type { WebhookEvent } from '../../events/webhook/events.ts';

export interface DeliveryHistory {
  jobId: string;
  event: string;
  url: string;
  status: 'scheduled' | 'delivered' | 'abandoned';
  scheduledAt: string;
  attempts: {
    attempt: number;
    at: string;
    status: number | null;
    error: string | null;
    detail: string | null;
    durationMs: number;
    retryInMs: number | null;
  }[];
  /** Why no more attempts come (abandoned only). */
  reason: string | null;
  endedAt: string | null;
}

/** The operator's view of one delivery stream, in order (what `webhooks list --job` prints). Null when nothing was scheduled. */
export function deliveryHistory(stream: readonly EventEnvelope[]): DeliveryHistory | null {
  let h: DeliveryHistory | null = null;
  for (const envelope of stream) {
    const e = domainEventOf<WebhookEvent>(envelope);
    if (e.type === 'WebhookScheduled') {
      h = {
        jobId: e.data.jobId,
        event: e.data.event,
        url: e.data.url,
        status: 'scheduled',
        scheduledAt: envelope.occurredAt,
        attempts: [],
        reason: null,
        endedAt: null,
      };
      continue;
    }
    if (!h) continue;
    switch (e.type) {
      case 'WebhookAttempted':
        h.attempts.push({
          attempt: e.data.attempt,
          at: envelope.occurredAt,
          status: e.data.status,
          error: e.data.error,
          detail: e.data.detail,
          durationMs: e.data.durationMs,
          retryInMs: e.data.retryInMs,
        });
        break;
      case 'WebhookDelivered':
        h = { ...h, status: 'delivered', endedAt: envelope.occurredAt };
        break;
      case 'WebhookAbandoned':
        h = { ...h, status: 'abandoned', reason: e.data.reason, endedAt: envelope.occurredAt };
        break;
      default:
        break;
    }
  }
  return h;
}
