import { getContent } from '../../infra/eventStore/contentStore.ts';
import { resultIdOfPositionId } from '../../events/revision/positionIds.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import type { RevisionEntry } from '../domain/revision/decider.ts';
import type { Rewrite } from './rewrite.ts';

/** What the content store keeps of a generation: spec 2.6 result without editedInPanel. */
export interface StoredResult {
  markdown: string;
  title: string | null;
  description: string | null;
  appliedIds: string[];
  skipped: Rewrite['skipped'];
  previewHtml: string;
  /**
   * 'result': the ids are the audit result's (issue 23). Absent on generations stored before, whose
   * recommendation ids counted from rec:0; they are read as the result's ids (positionIds.ts).
   */
  recIds?: 'result';
}

/** The stored generation with the result's recommendation ids, whenever it was written. */
export const withResultIds = (stored: StoredResult): Omit<StoredResult, 'recIds'> => {
  const { recIds, ...rest } = stored;
  if (recIds === 'result') return rest;
  return {
    ...rest,
    appliedIds: rest.appliedIds.map(resultIdOfPositionId),
    skipped: rest.skipped.map((s) => ({ ...s, id: resultIdOfPositionId(s.id) })),
  };
};

/** The 2.6 revision object (without apiVersion and fromCache, which the route adds). */
export async function presentRevision(
  db: Queryable,
  r: RevisionEntry,
  ids: { jobId: string | null; auditId: string; createdAt: string },
) {
  let result = null;
  if (r.status === 'completed' && r.resultRef) {
    const stored = JSON.parse((await getContent(db, r.resultRef)) ?? 'null') as StoredResult | null;
    if (stored) {
      const edited = r.editedMarkdownRef ? await getContent(db, r.editedMarkdownRef) : null;
      result = { ...withResultIds(stored), markdown: edited ?? stored.markdown, editedInPanel: edited !== null };
    }
  }
  return {
    revisionId: r.revisionId,
    id: ids.jobId ?? ids.auditId,
    auditId: ids.auditId,
    status: r.status,
    selectedIds: [...r.selectedIds],
    createdAt: ids.createdAt,
    error: r.status === 'failed' ? r.error : null,
    result,
    measurement:
      r.measurement === 'none' ? null : { status: r.measurement, cqsBefore: r.cqsBefore, cqsAfter: r.cqsAfter },
  };
}
