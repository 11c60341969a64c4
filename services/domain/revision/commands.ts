import type { Command } from '../../../core/decider.ts';

/**
 * Commands of the revision stream of one audit. Ids come in with the command: the revision id of a
 * new generation is derived by the caller from (audit, selection, how many of that selection came
 * before), so two racing requests for the same selection name the same revision.
 */
export type RequestRevision = Command<
  'RequestRevision',
  {
    revisionId: string;
    auditId: string;
    jobId: string | null;
    selectedIds: readonly string[];
    selectionKey: string;
    force: boolean;
  }
>;
export type RecordCharge = Command<'RecordCharge', { revisionId: string; chargeId: string | null; credits: number }>;
export type CompleteGeneration = Command<
  'CompleteGeneration',
  { revisionId: string; resultRef: string; appliedCount: number; cqsBefore: number | null }
>;
export type FailGeneration = Command<'FailGeneration', { revisionId: string; error: string }>;
export type RecordRefund = Command<'RecordRefund', { revisionId: string; credits: number }>;
export type RecordMeasurement = Command<
  'RecordMeasurement',
  { revisionId: string; status: 'completed' | 'error'; cqsAfter: number | null; error: string | null }
>;
export type EditRevision = Command<'EditRevision', { revisionId: string; markdownRef: string; actor: string }>;

export type RevisionCommand =
  | RequestRevision
  | RecordCharge
  | CompleteGeneration
  | FailGeneration
  | RecordRefund
  | RecordMeasurement
  | EditRevision;
