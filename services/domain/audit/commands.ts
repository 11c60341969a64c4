import type {
  AuditCompleted,
  AuditFailed,
  AuditRequested,
  ContentFetched,
  CsiDerived,
} from '../../../events/audit/events.ts';
import type { Command } from '../../../core/decider.ts';

/**
 * The request; with supplied content (contentRef), also its length in characters: the content is at
 * hand, so the request records it at once (decide.ts).
 */
export type RequestAudit = Command<'RequestAudit', AuditRequested['data'] & { suppliedChars?: number }>;
export type StartAudit = Command<'StartAudit', { attempt: number }>;
export type RecordContent = Command<'RecordContent', ContentFetched['data']>;
export type RecordCsi = Command<'RecordCsi', CsiDerived['data']>;
export type RecordCharge = Command<'RecordCharge', { chargeId: string | null; credits: number }>;
/** benchmarkRef may be left out: an audit without a benchmark keeps none. */
export type CompleteAudit = Command<
  'CompleteAudit',
  Omit<AuditCompleted['data'], 'benchmarkRef'> & { benchmarkRef?: string | null }
>;
export type FailAudit = Command<'FailAudit', AuditFailed['data']>;
export type AssignProject = Command<'AssignProject', { project: string | null; actor: string }>;

export type AuditCommand =
  RequestAudit | StartAudit | RecordContent | RecordCsi | RecordCharge | CompleteAudit | FailAudit | AssignProject;
