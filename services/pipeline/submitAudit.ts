import { digestId, randomHex } from '../../core/ids.ts';
import { auditStreamId, type AuditRequested } from '../../events/audit/events.ts';
import { accountStreamId } from '../../events/account/index.ts';
import { contentRefOf, putContent } from '../../infra/eventStore/contentStore.ts';
import { decideInTransaction, loadStream, lockStream, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import { admissionDecider } from '../domain/admission/decider.ts';
import { auditDecider } from '../domain/audit/decider.ts';
import { AppError } from '../../core/errors.ts';

export interface AuditRequestInput {
  url: string | null;
  content: string | null;
  title: string | null;
  keyword: string | null;
  language: string | null;
  project: string | null;
  share: boolean;
  shareExpiresInDays: number | null;
  webhookUrl: string | null;
}

export interface SubmitAuditCommand {
  accountId: string;
  source: 'api' | 'panel';
  request: AuditRequestInput;
  idempotencyKey: string | null;
  bulkId: string | null;
  now: Date;
  correlationId: string | null;
  /** A batch's entry comes with the ids its batch gave it (services/bulk). */
  ids?: { jobId: string; auditId: string };
}

export interface SubmittedAudit {
  auditId: string;
  jobId: string | null;
  /** True when an Idempotency-Key named an audit that already existed: nothing new was created. */
  replay: boolean;
  createdAt: string;
  project: string | null;
}

/**
 * Ids. With an Idempotency-Key the job id is derived from (account, key) and the audit id from the
 * job id, so a retry — even racing the first request — lands on the same streams and finds the
 * audit there (spec 4.2: the first request's parameters bind).
 */
export const idsFor = (accountId: string, source: 'api' | 'panel', idempotencyKey: string | null) => {
  if (idempotencyKey) {
    const jobId = `job_${digestId('job', accountId, idempotencyKey)}`;
    return { jobId, auditId: `aud_${digestId('audit', jobId)}` };
  }
  return { jobId: source === 'api' ? `job_${randomHex()}` : null, auditId: `aud_${randomHex()}` };
};

/**
 * Accepts an audit: admission on the account stream (402 without credits, 429 with three in
 * flight) and the request on the audit stream, in one transaction; the audits read model takes the
 * request inline (projections/inline.ts), so the job can be read back at once.
 */
export const submitAudit = (pool: Pool, cmd: SubmitAuditCommand): Promise<SubmittedAudit> =>
  transact(pool, (tx) => requestAudit(tx, cmd));

/**
 * The same inside a caller's transaction. A batch's entry skips admission: its credit was reserved
 * with the batch and it does not count against the three audits in flight (docs/api-decisions.md).
 */
export async function requestAudit(tx: PoolClient, cmd: SubmitAuditCommand): Promise<SubmittedAudit> {
  const { jobId, auditId } = cmd.ids ?? idsFor(cmd.accountId, cmd.source, cmd.idempotencyKey);
  {
    // Ids minted just now (random) name a stream nobody has written: nothing to read. Derived ids
    // (an Idempotency-Key, a batch's entry) may name an audit requested before.
    const fresh = cmd.ids === undefined && cmd.idempotencyKey === null;
    const existing = fresh
      ? { state: auditDecider.initialState(), version: 0, events: [], snapshotVersion: 0 }
      : await loadStream(tx, auditDecider, auditStreamId(auditId));
    if (existing.state.request) {
      const first = existing.events[0]!;
      return { auditId, jobId, replay: true, createdAt: first.occurredAt, project: existing.state.project };
    }
    const meta = { now: cmd.now, correlationId: cmd.correlationId };
    if (cmd.bulkId === null) {
      // An account's submissions queue here rather than conflict and start over.
      await lockStream(tx, accountStreamId(cmd.accountId));
      await decideInTransaction(tx, {
        ...meta,
        decider: admissionDecider,
        streamId: accountStreamId(cmd.accountId),
        accountId: cmd.accountId,
        command: { type: 'AdmitAudit', data: { auditId } },
      });
    }
    const contentRef = cmd.request.content === null ? null : contentRefOf(cmd.request.content);
    const r = cmd.request;
    const data: AuditRequested['data'] = {
      auditId,
      jobId,
      source: cmd.source,
      url: r.url,
      contentRef,
      // Supplied content without a title takes the keyword as its title (spec 4.2).
      title: r.content !== null ? (r.title ?? r.keyword) : null,
      keyword: r.keyword,
      language: r.language,
      project: r.project,
      share: r.share,
      shareExpiresInDays: r.shareExpiresInDays,
      webhookUrl: r.webhookUrl,
      bulkId: cmd.bulkId,
      idempotencyKey: cmd.idempotencyKey,
    };
    const { events } = await decideInTransaction(tx, {
      ...meta,
      decider: auditDecider,
      streamId: auditStreamId(auditId),
      accountId: cmd.accountId,
      loaded: existing,
      command: { type: 'RequestAudit', data },
    });
    // A racing retry with the same Idempotency-Key committed the request between our two reads:
    // start over, and the first read finds it (a replay).
    if (events.length === 0) throw new AppError('concurrency_conflict', `audit ${auditId} was requested concurrently`);
    if (cmd.request.content !== null) await putContent(tx, cmd.request.content);
    return { auditId, jobId, replay: false, createdAt: events[0]!.occurredAt, project: r.project };
  }
}
