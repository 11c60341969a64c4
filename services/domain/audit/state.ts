import type { AuditEvent, AuditErrorCode, AuditRequested } from '../../../events/audit/events.ts';

export type AuditStatus = 'queued' | 'running' | 'completed' | 'error';

export interface AuditState {
  status: 'None' | AuditStatus;
  request: AuditRequested['data'] | null;
  attempts: number;
  contentRef: string | null;
  format: 'html' | 'text' | null;
  csiDerived: boolean;
  /** The keyword and language the CSI was derived with: what the audit runs on (spec 2.3 input). */
  keyword: string | null;
  language: string | null;
  finalUrl: string | null;
  charged: boolean;
  errorCode: AuditErrorCode | null;
  project: string | null;
  /** The SERP benchmark input the audit was scored against, in the content store (null: none). */
  benchmarkRef: string | null;
}

export const initialState = (): AuditState => ({
  status: 'None',
  request: null,
  attempts: 0,
  contentRef: null,
  format: null,
  csiDerived: false,
  keyword: null,
  language: null,
  finalUrl: null,
  charged: false,
  errorCode: null,
  project: null,
  benchmarkRef: null,
});

export const isTerminal = (s: AuditState): boolean => s.status === 'completed' || s.status === 'error';

export const evolve = (state: AuditState, event: AuditEvent): AuditState => {
  switch (event.type) {
    case 'AuditRequested':
      return { ...state, status: 'queued', request: event.data, project: event.data.project };
    case 'AuditStarted':
      return { ...state, status: 'running', attempts: event.data.attempt };
    case 'ContentFetched':
      return { ...state, contentRef: event.data.contentRef, format: event.data.format, finalUrl: event.data.finalUrl };
    case 'CsiDerived':
      return { ...state, csiDerived: true, keyword: event.data.keyword, language: event.data.language };
    case 'AuditCharged':
      return { ...state, charged: true };
    case 'AuditCompleted':
      return { ...state, status: 'completed', benchmarkRef: event.data.benchmarkRef };
    case 'AuditFailed':
      return { ...state, status: 'error', errorCode: event.data.errorCode };
    case 'AuditProjectAssigned':
      return { ...state, project: event.data.project };
    default:
      return state;
  }
};
