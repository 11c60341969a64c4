import { typesOfStream } from '../../events/catalogue.ts';
import { idOf } from '../../events/streamId.ts';
import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import type { AuditEvent } from '../../events/audit/events.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { Projection } from '../projection.ts';
import { hostOf } from '../../core/host.ts';
import { unnestRows } from '../../infra/postgres/unnestRows.ts';

/**
 * Audits and jobs as the API reads them (spec 2.2, 2.3, 2.7). Each row remembers the stream version
 * it reflects and ignores events at or below it, so applying an event twice (inline at submission,
 * then again by the subscription) changes nothing.
 */
export const auditsProjection: Projection = {
  name: 'audits',
  version: 1,
  tables: ['audits'],
  createSql: `
    CREATE TABLE IF NOT EXISTS audits (
      audit_id        text        PRIMARY KEY,
      job_id          text        UNIQUE,
      account_id      text        NOT NULL,
      source          text        NOT NULL,
      status          text        NOT NULL,
      project         text,
      url             text,
      domain          text,
      keyword         text,
      language        text,
      content_ref     text,
      title           text,
      share           boolean     NOT NULL DEFAULT false,
      share_expires_in_days integer,
      webhook_url     text,
      bulk_id         text,
      idempotency_key text,
      cqs             double precision,
      credits_charged integer     NOT NULL DEFAULT 0,
      error_code      text,
      error_message   text,
      result          jsonb,
      created_at      timestamptz NOT NULL,
      updated_at      timestamptz NOT NULL,
      completed_at    timestamptz,
      stream_version  integer     NOT NULL
    );
    CREATE INDEX IF NOT EXISTS audits_account_created ON audits (account_id, created_at DESC, audit_id DESC);
    CREATE INDEX IF NOT EXISTS audits_account_project ON audits (account_id, project);
  `,
  // The audit stream's events as the catalogue declares them; those without a column are skipped.
  canHandle: typesOfStream('audit'),
  async handle(events, tx) {
    // A run of requests (a batch of submissions) is one statement; every other event its own.
    for (let i = 0; i < events.length;) {
      let end = i;
      while (end < events.length && events[end]!.type === 'AuditRequested') end++;
      if (end > i) {
        await insertRequested(events.slice(i, end), tx);
        i = end;
      } else await apply(events[i++]!, tx);
    }
  },
};

/** The NOTIFY channel of changed audit rows (payload: the audit id). */
export const AUDITS_CHANNEL = 'audits_changed';

const REQUESTED_ROWS = unnestRows([
  ['audit_id', 'text'],
  ['job_id', 'text'],
  ['account_id', 'text'],
  ['source', 'text'],
  ['project', 'text'],
  ['url', 'text'],
  ['domain', 'text'],
  ['keyword', 'text'],
  ['language', 'text'],
  ['content_ref', 'text'],
  ['title', 'text'],
  ['share', 'boolean'],
  ['share_expires_in_days', 'int'],
  ['webhook_url', 'text'],
  ['bulk_id', 'text'],
  ['idempotency_key', 'text'],
  ['created_at', 'timestamptz'],
  ['stream_version', 'int'],
]);

/** Queued rows for requested audits, in one statement; a row already there is left alone. */
async function insertRequested(events: EventEnvelope[], tx: PoolClient): Promise<void> {
  const rows = events.map((e) => {
    const d = domainEventOf<Extract<AuditEvent, { type: 'AuditRequested' }>>(e).data;
    return [
      idOf('audit', e.streamId),
      d.jobId,
      e.accountId,
      d.source,
      d.project,
      d.url,
      hostOf(d.url),
      d.keyword,
      d.language,
      d.contentRef,
      d.title,
      d.share,
      d.shareExpiresInDays,
      d.webhookUrl,
      d.bulkId,
      d.idempotencyKey,
      e.occurredAt,
      e.streamVersion,
    ];
  });
  const { names, unnest } = REQUESTED_ROWS;
  await tx.query({
    name: 'audits_requested',
    text: `INSERT INTO audits (${names}, status, updated_at)
           SELECT *, 'queued', v.created_at FROM ${unnest} AS v(${names})
           ON CONFLICT (audit_id) DO NOTHING`,
    values: REQUESTED_ROWS.values(rows),
  });
}

async function apply(e: EventEnvelope, tx: PoolClient): Promise<void> {
  const auditId = idOf('audit', e.streamId);
  const at = e.occurredAt;
  const v = e.streamVersion;
  // Every update below applies only to a row that has not seen this event yet. A row that changed
  // is NOTIFYed (delivered at commit): the API caches the rows of jobs being polled
  // (services/api/audits/auditCache.ts) and drops them on this.
  const update = (set: string, params: unknown[]) =>
    tx.query(
      `WITH u AS (UPDATE audits SET ${set}, updated_at = $2, stream_version = $3
                   WHERE audit_id = $1 AND stream_version < $3 RETURNING audit_id)
       SELECT pg_notify('${AUDITS_CHANNEL}', audit_id) FROM u`,
      [auditId, at, v, ...params],
    );
  const ev = domainEventOf<AuditEvent>(e);
  switch (ev.type) {
    case 'AuditRequested':
      return insertRequested([e], tx);
    case 'AuditStarted':
      await update(`status = 'running'`, []);
      return;
    case 'CsiDerived':
      await update('keyword = $4, language = $5', [ev.data.keyword, ev.data.language]);
      return;
    case 'AuditCharged':
      await update('credits_charged = $4', [ev.data.credits]);
      return;
    case 'AuditCompleted':
      await update(`status = 'completed', cqs = $4, result = $5::jsonb, completed_at = $2`, [
        ev.data.cqs,
        ev.data.resultJson,
      ]);
      return;
    case 'AuditFailed':
      await update(`status = 'error', error_code = $4, error_message = $5, completed_at = $2`, [
        ev.data.errorCode,
        ev.data.errorMessage,
      ]);
      return;
    case 'AuditProjectAssigned':
      await update('project = $4', [ev.data.project]);
      return;
    default:
      return;
  }
}
