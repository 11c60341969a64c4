import type { Pool, Queryable } from '../../infra/postgres/pool.ts';
import { withTransaction } from '../../infra/postgres/pool.ts';

/** One row of the audits read model, as the API maps it (services/api/audits/present.ts). */
export interface AuditRow {
  auditId: string;
  jobId: string | null;
  accountId: string;
  source: 'api' | 'panel';
  status: 'queued' | 'running' | 'completed' | 'error';
  project: string | null;
  url: string | null;
  keyword: string | null;
  language: string | null;
  bulkId: string | null;
  cqs: number | null;
  creditsCharged: number;
  errorCode: string | null;
  errorMessage: string | null;
  /** The engine's part of AuditResultV1 once completed. */
  result: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** The audit stream's version the row reflects: a later state of the same row has a higher one. */
  streamVersion: number;
}

/** The list's filters in read-model terms (parsed and validated by the API). */
export interface AuditListFilters {
  /** Exact name; null: unassigned only. */
  project?: string | null;
  status?: string;
  bulkId?: string;
  createdAfter?: { at: Date; inclusive: boolean };
  createdBefore?: { at: Date; inclusive: boolean };
  source: 'api' | 'panel' | 'all';
  /** A normalised host: the host itself or any subdomain of it. */
  domain?: string;
}

export interface ProjectRow {
  name: string;
  auditCount: number;
  lastAuditAt: Date;
}

const COLUMNS = `audit_id, job_id, account_id, source, status, project, url, keyword, language, bulk_id, cqs, credits_charged,
  error_code, error_message, result, created_at, updated_at, completed_at, stream_version`;
const COLUMNS_NO_RESULT = COLUMNS.replace('result,', 'NULL::jsonb AS result,');

/** A row as the driver returns it for COLUMNS (snake_case). */
interface AuditDbRow {
  audit_id: string;
  job_id: string | null;
  account_id: string;
  source: AuditRow['source'];
  status: AuditRow['status'];
  project: string | null;
  url: string | null;
  keyword: string | null;
  language: string | null;
  bulk_id: string | null;
  cqs: number | null;
  credits_charged: number;
  error_code: string | null;
  error_message: string | null;
  result: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  stream_version: number;
}

const toRow = (r: AuditDbRow): AuditRow => ({
  auditId: r.audit_id,
  jobId: r.job_id,
  accountId: r.account_id,
  source: r.source,
  status: r.status,
  project: r.project,
  url: r.url,
  keyword: r.keyword,
  language: r.language,
  bulkId: r.bulk_id,
  cqs: r.cqs,
  creditsCharged: r.credits_charged,
  errorCode: r.error_code,
  errorMessage: r.error_message,
  result: r.result,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  completedAt: r.completed_at,
  streamVersion: r.stream_version,
});

/** An audit of the account by job id or audit id (spec 4.3); another account's is not found. */
export async function findAudit(db: Queryable, accountId: string, id: string): Promise<AuditRow | null> {
  // Named: the poll of every client, so each connection parses and plans it once (prepared).
  const r = await db.query<AuditDbRow>({
    name: 'find_audit',
    text: `SELECT ${COLUMNS} FROM audits WHERE account_id = $1 AND (audit_id = $2 OR job_id = $2)`,
    values: [accountId, id],
  });
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/**
 * Several lookups as findAudit does them, in one statement: each (accountId, id) pair gets the
 * audit of THAT account with that job or audit id, or null, in the order given.
 */
export async function findAudits(
  db: Queryable,
  lookups: readonly { accountId: string; id: string }[],
): Promise<(AuditRow | null)[]> {
  const r = await db.query<AuditDbRow & { i: number }>({
    name: 'find_audits',
    text: `SELECT t.i::int AS i, a.* FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(acc, id, i)
             CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM audits WHERE account_id = t.acc AND (audit_id = t.id OR job_id = t.id)) a`,
    values: [lookups.map((l) => l.accountId), lookups.map((l) => l.id)],
  });
  const found: (AuditRow | null)[] = lookups.map(() => null);
  for (const row of r.rows) found[row.i - 1] = toRow(row);
  return found;
}

/** The account an audit belongs to (operator CLI); null when there is no such audit. */
export async function accountOfAudit(db: Queryable, auditId: string): Promise<string | null> {
  const r = await db.query<{ account_id: string }>('SELECT account_id FROM audits WHERE audit_id = $1', [auditId]);
  return r.rows[0]?.account_id ?? null;
}

function where(accountId: string, f: AuditListFilters): { sql: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const and: string[] = ['account_id = $1'];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (f.source !== 'all') and.push(`source = ${p(f.source)}`);
  if (f.project === null) and.push('project IS NULL');
  else if (f.project !== undefined) and.push(`project = ${p(f.project)}`);
  if (f.status !== undefined) and.push(`status = ${p(f.status)}`);
  if (f.bulkId !== undefined) and.push(`bulk_id = ${p(f.bulkId)}`);
  if (f.createdAfter) and.push(`created_at ${f.createdAfter.inclusive ? '>=' : '>'} ${p(f.createdAfter.at)}`);
  if (f.createdBefore) and.push(`created_at ${f.createdBefore.inclusive ? '<=' : '<'} ${p(f.createdBefore.at)}`);
  if (f.domain !== undefined) {
    // The host or a subdomain, compared label-wise: "blog.example.com" ends with ".example.com",
    // "notexample.com" does not. Content audits have no domain and never match.
    const d = p(f.domain);
    and.push(`(domain = ${d} OR right(domain, length(${d}) + 1) = '.' || ${d})`);
  }
  return { sql: and.join(' AND '), params };
}

/**
 * One page of the account's audits, newest first (created_at, then audit id as the tie-breaker),
 * and the total, from one snapshot so the two agree. The result document is not read: list rows
 * carry only the job fields.
 */
export async function listAudits(
  pool: Pool,
  accountId: string,
  filters: AuditListFilters,
  page: number,
  limit: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const w = where(accountId, filters);
  return withTransaction(pool, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const total = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM audits WHERE ${w.sql}`, w.params);
    const rows = await tx.query<AuditDbRow>(
      `SELECT ${COLUMNS_NO_RESULT} FROM audits WHERE ${w.sql}
        ORDER BY created_at DESC, audit_id DESC LIMIT $${w.params.length + 1} OFFSET $${w.params.length + 2}`,
      [...w.params, limit, (page - 1) * limit],
    );
    return { rows: rows.rows.map(toRow), total: total.rows[0]!.n };
  });
}

/**
 * The account's projects (spec 2.7): each exact, case-sensitive name currently on at least one of
 * its audits (API and app alike), with how many and the newest audit's creation time. Ordered by
 * name in code-point order (COLLATE "C"), the same whatever the server's locale.
 */
export async function listProjects(db: Queryable, accountId: string): Promise<ProjectRow[]> {
  const r = await db.query<{ name: string; n: number; last: Date }>(
    `SELECT project AS name, count(*)::int AS n, max(created_at) AS last FROM audits
      WHERE account_id = $1 AND project IS NOT NULL GROUP BY project ORDER BY project COLLATE "C"`,
    [accountId],
  );
  return r.rows.map((x) => ({ name: x.name, auditCount: x.n, lastAuditAt: x.last }));
}

/** The keyword each of the account's audits ran on (detected when none was given), by audit id. */
export async function keywordsOfAudits(
  db: Queryable,
  accountId: string,
  auditIds: readonly string[],
): Promise<Map<string, string | null>> {
  const r = await db.query<{ audit_id: string; keyword: string | null }>(
    'SELECT audit_id, keyword FROM audits WHERE account_id = $1 AND audit_id = ANY($2)',
    [accountId, auditIds],
  );
  return new Map(r.rows.map((row) => [row.audit_id, row.keyword]));
}
