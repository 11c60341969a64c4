import type { WebhookEvent, WebhookEventName, WebhookScheduled } from '../../../events/webhook/events.ts';

interface Known {
  delivery: WebhookScheduled['data'];
  /** Attempts recorded so far. */
  attempts: number;
  /** The pause the last attempt asked for before the next one; null before the first attempt. */
  retryInMs: number | null;
}

export type WebhookState =
  | { status: 'None' }
  | (Known & { status: 'Scheduled' })
  | (Known & { status: 'Delivered'; deliveredStatus: number })
  | (Known & { status: 'Abandoned'; reason: string });

export const initialState = (): WebhookState => ({ status: 'None' });

export const isFinished = (s: WebhookState): boolean => s.status === 'Delivered' || s.status === 'Abandoned';

export const eventNameOf = (s: WebhookState): WebhookEventName | null =>
  s.status === 'None' ? null : s.delivery.event;

/** Events that do not fit (anything before WebhookScheduled) are ignored: replay never throws. */
export const evolve = (state: WebhookState, event: WebhookEvent): WebhookState => {
  if (state.status === 'None') {
    return event.type === 'WebhookScheduled'
      ? { status: 'Scheduled', delivery: event.data, attempts: 0, retryInMs: null }
      : state;
  }
  switch (event.type) {
    case 'WebhookAttempted':
      return { ...state, attempts: event.data.attempt, retryInMs: event.data.retryInMs };
    case 'WebhookDelivered':
      return { ...state, status: 'Delivered', deliveredStatus: event.data.status };
    case 'WebhookAbandoned':
      return { ...state, status: 'Abandoned', reason: event.data.reason };
    default:
      return state;
  }
};
