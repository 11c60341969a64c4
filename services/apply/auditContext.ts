import { auditStreamId } from '../../events/audit/events.ts';
import { getContent } from '../../infra/eventStore/contentStore.ts';
import { loadStream } from '../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { findAudit, type AuditRow } from '../../projections/audits/queries.ts';
import { auditDecider } from '../domain/audit/decider.ts';
import type { EngineResult } from '../engine/types.ts';
import { AppError } from '../../core/errors.ts';
import { contextOnPool } from './engine.ts';
import type { PlannedItem } from './items.ts';

export interface AuditContext {
  row: AuditRow;
  auditId: string;
  language: string;
  keyword: string;
  format: 'html' | 'text' | null;
  /** The audited content as the engine saw it (HTML or text). */
  content: string;
  /** The Markdown a rewrite starts from. */
  markdown: string;
  result: EngineResult;
  items: PlannedItem[];
}

/**
 * The audited content and its items for apply (4.10, 4.11). By job id or audit id of the account;
 * another account's audit or an unknown id is 404, an audit not completed 409 not_completed. The
 * rewrite starts from the audited content (4.11 rule 4), taken from the content store.
 */
export async function loadAuditContext(
  db: Queryable,
  accountId: string,
  id: string,
  writer = false,
): Promise<AuditContext> {
  const row = await findAudit(db, accountId, id);
  if (!row) throw new AppError('not_found', 'Audit not found');
  if (row.status !== 'completed' || !row.result)
    throw new AppError('not_completed', `The audit is ${row.status}; apply needs a completed audit`);
  return contextOf(db, row, writer);
}

/** `writer`: a writer model is configured, so items it can write are selectable (items.ts). */
export async function contextOf(db: Queryable, row: AuditRow, writer = false): Promise<AuditContext> {
  const { state } = await loadStream(db, auditDecider, auditStreamId(row.auditId));
  if (state.status === 'None' || !state.contentRef) throw new Error(`audit ${row.auditId} has no content`);
  const content = await getContent(db, state.contentRef);
  if (content === null) throw new Error(`content ${state.contentRef} is missing from the store`);
  const result = row.result as unknown as EngineResult;
  const language = state.language ?? result.input.language ?? 'en';
  const keyword = state.keyword ?? result.input.keyword ?? '';
  const { markdown, items } = await contextOnPool({
    content,
    format: state.format,
    language,
    keyword,
    recommendations: result.recommendations ?? [],
    paa: result.benchmark?.paa ?? [],
    title: state.request?.title ?? null,
    writer,
  });
  return { row, auditId: row.auditId, language, keyword, format: state.format, content, markdown, result, items };
}
