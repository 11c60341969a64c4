import type { AuditResultV1 } from './resultSchema.ts';
import type { EngineResult } from './types.ts';

/** What the service (or the offline command) adds to the engine's document (spec 2.3). */
export interface ServiceFields {
  id: string;
  createdAt: string;
  completedAt: string;
  /** The audit's current project: a reassignment is visible in input.project. */
  project: string | null;
  meta: AuditResultV1['meta'];
}

/** The full AuditResultV1 of a completed audit: the engine's part plus the service's fields. */
export const toAuditResultV1 = (r: EngineResult, f: ServiceFields): AuditResultV1 =>
  ({
    id: f.id,
    status: 'completed',
    createdAt: f.createdAt,
    completedAt: f.completedAt,
    input: { url: r.input.url, keyword: r.input.keyword, language: r.input.language, project: f.project },
    scores: r.scores,
    csi: r.csi,
    dimensions: r.dimensions,
    eeat: r.eeat,
    recommendations: r.recommendations,
    benchmark: r.benchmark,
    summary: r.summary,
    meta: f.meta,
  }) as AuditResultV1;
