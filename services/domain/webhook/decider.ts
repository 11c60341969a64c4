import type { WebhookEvent } from '../../../events/webhook/events.ts';
import type { Decider } from '../../../core/decider.ts';
import type { WebhookCommand } from './commands.ts';
import { decide } from './decide.ts';
import { evolve, initialState, type WebhookState } from './state.ts';

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = { decide, evolve, initialState };
export { nextAttempt } from './decide.ts';
export type { WebhookCommand } from './commands.ts';
export { isFinished, type WebhookState } from './state.ts';
export { MAX_ATTEMPTS, PAUSES_MS, RESPONSE_TIMEOUT_MS } from './policy.ts';
