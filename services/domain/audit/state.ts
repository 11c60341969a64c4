import type { AuditEvent, AuditErrorCode, AuditRequested } from '../../../events/audit/events.ts';

export type AuditStatus = 'queued' | 'running' | 'completed' | 'error';

/** What every requested audit has, whatever its status: the request and how far its steps got. */
interface Requested {
  request: AuditRequested['data'];
  project: string | null;
  attempts: number;
  contentRef: string | null;
  format: 'html' | 'text' | null;
  finalUrl: string | null;
  csiDerived: boolean;
  /** The keyword and language the CSI was derived with: what the audit runs on (spec 2.3 input). */
  keyword: string | null;
  language: string | null;
  charged: boolean;
}

/** No request on the stream. */
export interface NoAudit {
  status: 'None';
}

/** Accepted and not ended: the steps may still act on it. */
export interface InFlightAudit extends Requested {
  status: 'queued' | 'running';
}

export interface CompletedAudit extends Requested {
  status: 'completed';
  /** The SERP benchmark input the audit was scored against, in the content store (null: none). */
  benchmarkRef: string | null;
}

export interface FailedAudit extends Requested {
  status: 'error';
  errorCode: AuditErrorCode;
}

/** The status decides which fields exist: a request from `queued` on, an error code only on `error`. */
export type AuditState = NoAudit | InFlightAudit | CompletedAudit | FailedAudit;

export const initialState = (): AuditState => ({ status: 'None' });

export const isTerminal = (s: AuditState): s is CompletedAudit | FailedAudit =>
  s.status === 'completed' || s.status === 'error';

export const isInFlight = (s: AuditState): s is InFlightAudit => s.status === 'queued' || s.status === 'running';

const requested = (request: AuditRequested['data']): Requested => ({
  request,
  project: request.project,
  attempts: 0,
  contentRef: null,
  format: null,
  finalUrl: null,
  csiDerived: false,
  keyword: null,
  language: null,
  charged: false,
});

/** A requested audit's own fields, without those of its status (benchmarkRef, errorCode). */
const requestedOf = (s: Requested): Requested => ({
  request: s.request,
  project: s.project,
  attempts: s.attempts,
  contentRef: s.contentRef,
  format: s.format,
  finalUrl: s.finalUrl,
  csiDerived: s.csiDerived,
  keyword: s.keyword,
  language: s.language,
  charged: s.charged,
});

/** A step's record on a requested audit, its status kept; nothing requested, nothing to record on. */
const update = (state: AuditState, change: Partial<Requested>): AuditState =>
  state.status === 'None' ? state : { ...state, ...change };

export const evolve = (state: AuditState, event: AuditEvent): AuditState => {
  switch (event.type) {
    case 'AuditRequested': {
      const base = state.status === 'None' ? requested(event.data) : requestedOf(state);
      return { ...base, status: 'queued', request: event.data, project: event.data.project };
    }
    case 'AuditStarted':
      return state.status === 'None'
        ? state
        : { ...requestedOf(state), status: 'running', attempts: event.data.attempt };
    case 'ContentFetched':
      return update(state, {
        contentRef: event.data.contentRef,
        format: event.data.format,
        finalUrl: event.data.finalUrl,
      });
    case 'CsiDerived':
      return update(state, { csiDerived: true, keyword: event.data.keyword, language: event.data.language });
    case 'AuditCharged':
      return update(state, { charged: true });
    case 'AuditCompleted':
      return state.status === 'None'
        ? state
        : { ...requestedOf(state), status: 'completed', benchmarkRef: event.data.benchmarkRef };
    case 'AuditFailed':
      return state.status === 'None'
        ? state
        : { ...requestedOf(state), status: 'error', errorCode: event.data.errorCode };
    case 'AuditProjectAssigned':
      return update(state, { project: event.data.project });
    default:
      return state;
  }
};
