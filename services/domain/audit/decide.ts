import {
  AuditCharged,
  AuditCompleted,
  AuditFailed,
  AuditProjectAssigned,
  AuditRequested,
  AuditStarted,
  ContentFetched,
  CsiDerived,
  type AuditEvent,
} from '../../../events/audit/events.ts';
import { AppError } from '../../../core/errors.ts';
import type { AuditCommand, RequestAudit } from './commands.ts';
import { isTerminal, type AuditState } from './state.ts';

/**
 * One audit's life: queued → running → content → CSI → charged → completed, or error from any
 * non-terminal state. Steps are idempotent: a worker that repeats a step after a crash gets []
 * instead of a second event, and a step that comes too late (the audit already ended) is a no-op.
 */
export const decide = (command: AuditCommand, state: AuditState): AuditEvent[] => {
  if (command.type === 'RequestAudit') return requestAudit(command.data, state);
  if (state.status === 'None') throw new AppError('not_found', 'Audit not found');
  switch (command.type) {
    case 'StartAudit':
      if (isTerminal(state) || command.data.attempt <= state.attempts) return [];
      return [AuditStarted({ attempt: command.data.attempt })];
    case 'RecordContent':
      if (isTerminal(state) || state.contentRef) return [];
      requireRunning(state);
      return [ContentFetched(command.data)];
    case 'RecordCsi':
      if (isTerminal(state) || state.csiDerived) return [];
      if (!state.contentRef) throw new AppError('internal_error', 'CSI before content');
      return [CsiDerived(command.data)];
    case 'RecordCharge':
      if (isTerminal(state) || state.charged) return [];
      if (!state.csiDerived)
        throw new AppError(
          'internal_error',
          'charge before CSI: the credit is taken only after content and CSI (spec 3.1)',
        );
      return [AuditCharged(command.data)];
    case 'CompleteAudit':
      if (isTerminal(state)) return [];
      if (!state.charged) throw new AppError('internal_error', 'completion before the charge');
      return [AuditCompleted({ ...command.data, benchmarkRef: command.data.benchmarkRef ?? null })];
    case 'FailAudit':
      return isTerminal(state) ? [] : [AuditFailed(command.data)];
    case 'AssignProject':
      return state.project === command.data.project ? [] : [AuditProjectAssigned(command.data)];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};

/**
 * A repeat of the same request (Idempotency-Key) finds the audit there: nothing new. Supplied
 * content needs no fetch: the request is started and its content recorded in the same decision
 * (queued → running → content at once), so the analysis is due the moment it commits; a page waits
 * for its fetch (StartAudit, RecordContent).
 */
const requestAudit = ({ suppliedChars, ...request }: RequestAudit['data'], state: AuditState): AuditEvent[] => {
  if (state.status !== 'None') return [];
  if (request.contentRef === null) return [AuditRequested(request)];
  if (suppliedChars === undefined)
    throw new AppError('internal_error', 'a request with supplied content needs its length (suppliedChars)');
  return [
    AuditRequested(request),
    AuditStarted({ attempt: 1 }),
    ContentFetched({ contentRef: request.contentRef, format: 'text', finalUrl: null, chars: suppliedChars }),
  ];
};

const requireRunning = (state: AuditState): void => {
  if (state.status !== 'running') throw new AppError('internal_error', `audit is ${state.status}, not running`);
};
