import {
  WebhookAbandoned,
  WebhookAttempted,
  WebhookDelivered,
  WebhookScheduled,
  type WebhookEvent,
} from '../../../events/webhook/events.ts';
import { AppError } from '../../../core/errors.ts';
import type { WebhookCommand } from './commands.ts';
import { judge, MAX_ATTEMPTS, PAUSES_MS } from './policy.ts';
import { isFinished, type WebhookState } from './state.ts';

/**
 * One job's webhook: scheduled → attempts → delivered or abandoned (spec 6). Nothing is recorded
 * after delivered or abandoned, and an attempt recorded twice (two workers, a retried transaction)
 * is recorded once: the worker asks again before every POST, so a recorded 2xx stops all sending.
 */
export const decide = (command: WebhookCommand, state: WebhookState): WebhookEvent[] => {
  if (command.type === 'ScheduleWebhook') return state.status === 'None' ? [WebhookScheduled(command.data)] : [];
  if (state.status === 'None') throw new AppError('not_found', 'No webhook is scheduled for this job');
  if (isFinished(state)) return [];
  switch (command.type) {
    case 'RecordAttempt': {
      const a = command.data;
      if (a.attempt <= state.attempts) return [];
      if (a.attempt !== state.attempts + 1)
        throw new AppError('internal_error', `webhook attempt ${a.attempt} after ${state.attempts}`);
      if (a.attempt > MAX_ATTEMPTS)
        throw new AppError('internal_error', `webhook attempt ${a.attempt} beyond the ${MAX_ATTEMPTS} allowed`);
      const verdict = judge(a.status, a.error);
      const last = a.attempt === MAX_ATTEMPTS;
      const retryInMs = verdict.kind === 'retry' && !last ? PAUSES_MS[a.attempt - 1]! : null;
      const attempted = WebhookAttempted({ ...a, retryInMs });
      if (verdict.kind === 'delivered') return [attempted, WebhookDelivered({ attempt: a.attempt, status: a.status! })];
      if (verdict.kind === 'stop')
        return [attempted, WebhookAbandoned({ reason: verdict.reason, attempts: a.attempt })];
      return last ? [attempted, WebhookAbandoned({ reason: 'attempts_exhausted', attempts: a.attempt })] : [attempted];
    }
    case 'AbandonWebhook':
      return [WebhookAbandoned({ reason: command.data.reason, attempts: state.attempts })];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};

/**
 * When the next attempt may go out: at once for the first, else the pause the last attempt asked
 * for, counted from when that attempt was recorded. Null when nothing more is to be sent.
 */
export const nextAttempt = (
  state: WebhookState,
  lastAttemptAt: Date | null,
): { attempt: number; notBefore: Date | null } | null => {
  if (state.status !== 'Scheduled') return null;
  if (state.attempts === 0) return { attempt: 1, notBefore: null };
  if (state.retryInMs === null || lastAttemptAt === null) return null;
  return { attempt: state.attempts + 1, notBefore: new Date(lastAttemptAt.getTime() + state.retryInMs) };
};
