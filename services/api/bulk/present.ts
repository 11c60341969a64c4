import type { Queryable } from '../../../infra/postgres/pool.ts';
import { keywordsOfAudits } from '../../../projections/audits/queries.ts';
import { countsOf, creditsChargedOf, type BulkState } from '../../domain/bulk/decider.ts';
import { API_VERSION } from '../../../core/apiVersion.ts';

/**
 * The batch object (spec 2.4). An entry's job exists once its turn came: before that jobId and
 * auditId are null. keyword is the one the audit ran on once known (detected when none was given).
 */
export async function presentBulk(db: Queryable, accountId: string, state: BulkState) {
  const started = state.entries.filter((e) => e.status !== 'queued' && e.status !== 'skipped').map((e) => e.auditId);
  const keywords = started.length ? await keywordsOfAudits(db, accountId, started) : new Map<string, string | null>();
  const counts = countsOf(state);
  const done = counts.completed + counts.failed + counts.skipped;
  return {
    id: state.bulkId!,
    status: state.status as Exclude<BulkState['status'], 'None'>,
    progress: counts.total === 0 ? 100 : Math.floor((done * 100) / counts.total),
    urlCount: counts.total,
    project: state.project,
    creditsCharged: creditsChargedOf(state),
    counts,
    entries: state.entries.map((e) => {
      const hasJob = e.status !== 'queued' && e.status !== 'skipped';
      return {
        url: e.url,
        keyword: (hasJob ? keywords.get(e.auditId) : null) ?? e.keyword,
        status: e.status,
        jobId: hasJob ? e.jobId : null,
        auditId: hasJob ? e.auditId : null,
        cqs: e.cqs,
        aiCitability: null,
        error: e.error,
      };
    }),
    createdAt: state.submittedAt!,
    apiVersion: API_VERSION,
  };
}
