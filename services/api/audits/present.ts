import type { AuditRow, ProjectRow } from '../../../projections/audits/queries.ts';
import type { ShareRow } from '../../../projections/shares/queries.ts';
import { shareMetaOf } from '../../share/shareMeta.ts';
import type { AuditResultV1 } from '../../engine/resultSchema.ts';
import { toAuditResultV1 } from '../../engine/resultV1.ts';
import type { EngineResult } from '../../engine/types.ts';
import { API_VERSION } from '../../../core/apiVersion.ts';
import type { JobFailed, JobInProgress, JobReceipt, JobRow } from '../schemas/audits.ts';

/** What the response mapping needs from the configuration. */
export interface PresentSettings {
  /** PUBLIC_BASE_URL: where the app (and its report pages) live. */
  publicBaseUrl: string;
}

/** The full report in the app (spec 2.2, 2.3 reportUrl: requires login). */
export const reportUrlOf = (s: PresentSettings, auditId: string): string =>
  `${s.publicBaseUrl}/app/audits/${encodeURIComponent(auditId)}`;

/** The id a single audit is shown under: the job id, or the audit id for an audit created in the app. */
const singleId = (row: AuditRow): string => row.jobId ?? row.auditId;

/** Spec 2.2: errorCode is always null for audits created in the app. */
const errorCodeOf = (row: AuditRow): string | null =>
  row.status === 'error' && row.source === 'api' ? row.errorCode : null;

const iso = (d: Date): string => d.toISOString();

/**
 * GET /audits/{id} (spec 4.3), and the 200 of an Idempotency-Key replay to a key with audits:read:
 * the shape of the current status.
 */
export function presentAudit(
  row: AuditRow,
  s: PresentSettings,
  share: ShareRow | null = null,
): JobInProgress | JobFailed | AuditResultV1 {
  if (row.status === 'queued' || row.status === 'running') return { ...presentReceipt(row), status: row.status };
  if (row.status === 'error') {
    return {
      id: singleId(row),
      status: 'error',
      errorCode: errorCodeOf(row),
      errorMessage: row.errorMessage ?? 'The audit failed',
      createdAt: iso(row.createdAt),
      apiVersion: API_VERSION,
    };
  }
  return presentResult(row, s, share);
}

/** The job in the submission's shape (spec 4.2), whatever its status: no result, no error detail. */
export const presentReceipt = (row: AuditRow): JobReceipt => ({
  id: singleId(row),
  status: row.status,
  auditId: row.auditId,
  project: row.project,
  createdAt: iso(row.createdAt),
  apiVersion: API_VERSION,
});

/**
 * A completed audit as AuditResultV1 (spec 2.3): the engine's document, with input.project the
 * CURRENT assignment (a reassignment is visible) and meta from the service. apiVersion lives in
 * meta here, not at the top level (spec 9.3). The share fields come from the audit's link, if any.
 */
export function presentResult(
  row: AuditRow,
  s: PresentSettings,
  share: ShareRow | null = null,
  now = new Date(),
): AuditResultV1 {
  // A completed row always holds the engine's document (AuditCompleted.resultJson).
  return toAuditResultV1(row.result as unknown as EngineResult, {
    id: singleId(row),
    createdAt: iso(row.createdAt),
    completedAt: iso(row.completedAt ?? row.updatedAt),
    project: row.project,
    meta: {
      creditsCharged: row.creditsCharged,
      apiVersion: API_VERSION,
      reportUrl: reportUrlOf(s, row.auditId),
      ...shareMetaOf(share, now, s.publicBaseUrl),
    },
  });
}

export function presentRow(row: AuditRow, s: PresentSettings): JobRow {
  return {
    id: row.source === 'panel' ? null : row.jobId,
    status: row.status,
    auditId: row.auditId,
    project: row.project,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    input: { url: row.url, keyword: row.keyword, language: row.language },
    // aiCitability is deprecated (spec 2.3): null for every audit of this service (all after 2026-08-27).
    scores: { cqs: row.cqs, aiCitability: null },
    creditsCharged: row.creditsCharged,
    errorCode: errorCodeOf(row),
    errorMessage: row.status === 'error' ? (row.errorMessage ?? 'The audit failed') : null,
    reportUrl: reportUrlOf(s, row.auditId),
    bulkId: row.bulkId,
    source: row.source,
  };
}

export const presentProject = (p: ProjectRow) => ({
  name: p.name,
  auditCount: p.auditCount,
  lastAuditAt: iso(p.lastAuditAt),
});
