import { typesOfStream } from '../../events/catalogue.ts';
import { idOf, streamIdOf } from '../../events/streamId.ts';
import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import type { AuditEvent } from '../../events/audit/events.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { Projection } from '../projection.ts';
import { hostOf } from '../../core/host.ts';
import { unnestRows } from '../../infra/postgres/unnestRows.ts';
import { requestRuns, type RequestRun } from './requestRuns.ts';

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
    // The batch's requests are one statement, each row with what its stream recorded with it
    // (requestRuns.ts); every other event is its own.
    const runs = requestRuns(events, changesRow);
    const inserted = runs.size ? await insertRequested([...runs.values()], tx) : new Set<string>();
    const taken = new Set<EventEnvelope>();
    for (const [streamId, run] of runs) {
      // A row already there (a redelivery) took its request before: the rest of the run is
      // applied to it one by one, each behind the stream version guard.
      if (inserted.has(streamId)) run.events.forEach((e) => taken.add(e));
      else taken.add(run.requested);
    }
    for (const e of events) if (!taken.has(e)) await apply(e, tx);
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
  ['status', 'text'],
  ['updated_at', 'timestamptz'],
  ['stream_version', 'int'],
]);

/**
 * Rows for requested audits, in one statement: queued, or running when the run holds the start. A
 * row already there is left alone. Returns the stream ids of the rows inserted.
 */
async function insertRequested(runs: RequestRun[], tx: PoolClient): Promise<Set<string>> {
  const rows = runs.map(({ requested: e, started, last }) => {
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
      started ? 'running' : 'queued',
      last.occurredAt,
      last.streamVersion,
    ];
  });
  const { names, unnest } = REQUESTED_ROWS;
  const r = await tx.query<{ audit_id: string }>({
    name: 'audits_requested',
    text: `INSERT INTO audits (${names})
           SELECT * FROM ${unnest} AS v(${names})
           ON CONFLICT (audit_id) DO NOTHING RETURNING audit_id`,
    values: REQUESTED_ROWS.values(rows),
  });
  return new Set(r.rows.map((row) => streamIdOf('audit', row.audit_id)));
}

/**
 * What each of the stream's events sets on its row beside updated_at and stream_version ($2, $3;
 * the audit id is $1): null where it sets nothing. Every type of the stream is listed, so a new one
 * is a decision here, and requestRuns only folds into a new row what sets nothing but its status.
 */
type DataOf<T extends AuditEvent['type']> = Extract<AuditEvent, { type: T }>['data'];
const UPDATES: { [T in AuditEvent['type']]: ((data: DataOf<T>) => [set: string, params: unknown[]]) | null } = {
  AuditRequested: null, // inserted (insertRequested)
  AuditStarted: () => [`status = 'running'`, []],
  ContentFetched: null,
  CsiDerived: (d) => ['keyword = $4, language = $5', [d.keyword, d.language]],
  AuditCharged: (d) => ['credits_charged = $4', [d.credits]],
  AuditCompleted: (d) => [
    `status = 'completed', cqs = $4, result = $5::jsonb, completed_at = $2`,
    [d.cqs, d.resultJson],
  ],
  AuditFailed: (d) => [
    `status = 'error', error_code = $4, error_message = $5, completed_at = $2`,
    [d.errorCode, d.errorMessage],
  ],
  AuditProjectAssigned: (d) => ['project = $4', [d.project]],
};

/** Whether an event of this type writes its row (a type of no list does, to be safe). */
const changesRow = (type: string): boolean =>
  type === 'AuditRequested' || !(type in UPDATES) || UPDATES[type as AuditEvent['type']] !== null;

async function apply(e: EventEnvelope, tx: PoolClient): Promise<void> {
  const ev = domainEventOf<AuditEvent>(e);
  if (ev.type === 'AuditRequested') {
    await insertRequested([{ requested: e, events: [e], started: false, last: e }], tx);
    return;
  }
  const updateOf = UPDATES[ev.type] as ((data: unknown) => [string, unknown[]]) | null | undefined;
  if (!updateOf) return;
  const [set, params] = updateOf(ev.data);
  // Applies only to a row that has not seen this event yet. A row that changed is NOTIFYed
  // (delivered at commit): the API caches the rows of jobs being polled
  // (services/api/audits/auditCache.ts) and drops them on this.
  await tx.query(
    `WITH u AS (UPDATE audits SET ${set}, updated_at = $2, stream_version = $3
                 WHERE audit_id = $1 AND stream_version < $3 RETURNING audit_id)
     SELECT pg_notify('${AUDITS_CHANNEL}', audit_id) FROM u`,
    [idOf('audit', e.streamId), e.occurredAt, e.streamVersion, ...params],
  );
}
