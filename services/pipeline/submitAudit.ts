import { digestId, randomHex } from '../../core/ids.ts';
import { auditStreamId, type AuditEvent, type AuditRequested } from '../../events/audit/events.ts';
import { accountStreamId } from '../../events/account/index.ts';
import { contentRefOf, putContents } from '../../infra/eventStore/contentStore.ts';
import {
  appendToStreams,
  loadStreams,
  lockStreams,
  snapshotIfDue,
  type AppendRequest,
  type Loaded,
} from '../../infra/eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import { admissionDecider, type AdmissionState } from '../domain/account/admissionView.ts';
import { auditDecider, type AuditState } from '../domain/audit/decider.ts';
import { AppError } from '../../core/errors.ts';
import { reactInStep } from '../../infra/reactions.ts';
import { transactHandingOver } from '../../infra/taskQueue/handOver.ts';
import { ANALYSE, FETCH } from './tasks.ts';

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

/** What became of one command of a batch: accepted (or a replay), or refused on its own. */
export type SubmissionOutcome = { ok: true; value: SubmittedAudit } | { ok: false; error: unknown };

/**
 * A command with its ids fixed before its first attempt. `minted`: the ids are random, made for
 * this submission (no Idempotency-Key, not a batch's entry), so its first attempt need not read an
 * audit stream nobody can have written, and any later attempt (after a failure, perhaps of a
 * COMMIT that did land) finds its own audit instead of making a second one.
 */
export interface Submission {
  cmd: SubmitAuditCommand;
  jobId: string | null;
  auditId: string;
  minted: boolean;
}

export const toSubmission = (cmd: SubmitAuditCommand): Submission => ({
  cmd,
  ...(cmd.ids ?? idsFor(cmd.accountId, cmd.source, cmd.idempotencyKey)),
  minted: cmd.ids === undefined && cmd.idempotencyKey === null,
});

const unwrap = (o: SubmissionOutcome): SubmittedAudit => {
  if (!o.ok) throw o.error;
  return o.value;
};

/**
 * Accepts an audit: admission on the account stream (402 without credits, 429 with three in
 * flight) and the request on the audit stream, in one transaction; the audits read model takes the
 * request inline (projections/inline.ts), so the job can be read back at once.
 */
export const submitAudit = async (pool: Pool, cmd: SubmitAuditCommand): Promise<SubmittedAudit> =>
  unwrap((await submitAudits(pool, [toSubmission(cmd)]))[0]!);

/** The task a new audit needs first: its fetch, or, with its content supplied, its analysis. */
const firstTaskOf = (sub: Submission): string => (sub.cmd.request.content === null ? FETCH : ANALYSE);

/**
 * Submissions in one transaction, retried on conflicts with the ids they were given. The first
 * submission's first task (FETCH or ANALYSE) goes straight to an idle loop of this process, if
 * there is one (handOver.ts), for the first new audit that needs a task of that kind.
 */
export async function submitAudits(pool: Pool, subs: readonly Submission[]): Promise<SubmissionOutcome[]> {
  let firstAttempt = true;
  const kind = subs.length ? firstTaskOf(subs[0]!) : FETCH;
  return transactHandingOver(pool, kind, async (tx, handOver) => {
    const first = firstAttempt;
    firstAttempt = false;
    const outcomes = await submitAuditsInTransaction(tx, subs, { firstAttempt: first });
    const fresh = outcomes.findIndex((o, i) => o.ok && !o.value.replay && firstTaskOf(subs[i]!) === kind);
    if (fresh >= 0) await handOver(tx, subs[fresh]!.auditId);
    return outcomes;
  });
}

/**
 * The same inside a caller's transaction. A batch's entry skips admission: its credit was reserved
 * with the batch and it does not count against the three audits in flight (docs/api-decisions.md).
 */
export const submitAuditInTransaction = async (tx: PoolClient, cmd: SubmitAuditCommand): Promise<SubmittedAudit> =>
  unwrap((await submitAuditsInTransaction(tx, [toSubmission(cmd)]))[0]!);

/**
 * Several submissions decided together: the accounts locked and read in one query each, every
 * stream appended in one statement, every body stored in one. Each command is decided in order on
 * the state its predecessors left (two submissions of one account see each other), and a refusal
 * (402, 429) refuses that command alone. A conflict fails the whole transaction, for transact() to
 * retry. The submissions must name distinct audits.
 */
export async function submitAuditsInTransaction(
  tx: PoolClient,
  planned: readonly Submission[],
  { firstAttempt = false } = {},
): Promise<SubmissionOutcome[]> {
  if (new Set(planned.map((p) => p.auditId)).size !== planned.length)
    throw new Error('submitAuditsInTransaction: one audit named twice in a batch');
  const audits = await loadAudits(tx, planned, firstAttempt);
  const { loadedAccounts, accounts } = await loadAdmissions(tx, planned, audits);
  const batch: Batch = {
    outcomes: new Array<SubmissionOutcome>(planned.length),
    appends: [],
    accepted: [],
    contents: [],
  };
  for (const [index, submission] of planned.entries()) decideSubmission(batch, index, submission, audits, accounts);
  const appended = await appendToStreams(tx, batch.appends);
  // The requests' first tasks, due when this commits (services/reactions.ts): a page's fetch, or
  // the analysis of supplied content, recorded with its request (the audit decider).
  await reactInStep(tx, appended.flat());
  for (const { index, append, value } of batch.accepted)
    batch.outcomes[index] = { ok: true, value: { ...value, createdAt: appended[append]![0]!.occurredAt } };
  await putContents(tx, batch.contents);
  for (const [streamId, { state, version }] of accounts)
    await snapshotIfDue(tx, admissionDecider, streamId, loadedAccounts.get(streamId)!, version, state);
  return batch.outcomes;
}

/** What the submissions decided together add up to, filled in order. */
interface Batch {
  outcomes: SubmissionOutcome[];
  appends: AppendRequest[];
  /** Accepted commands, answered once the append has given their events a time. */
  accepted: { index: number; append: number; value: Omit<SubmittedAudit, 'createdAt'> }[];
  contents: string[];
}

type Accounts = Map<string, { state: AdmissionState; version: number }>;

async function loadAudits(
  tx: PoolClient,
  planned: readonly Submission[],
  firstAttempt: boolean,
): Promise<Map<string, Loaded<AuditState>>> {
  // Ids minted for this submission name a stream nobody has written before its first attempt.
  const derived = planned.filter((p) => !(p.minted && firstAttempt));
  return derived.length
    ? await loadStreams(
        tx,
        auditDecider,
        derived.map((p) => auditStreamId(p.auditId)),
      )
    : new Map<string, Loaded<AuditState>>();
}

async function loadAdmissions(
  tx: PoolClient,
  planned: readonly Submission[],
  audits: Map<string, Loaded<AuditState>>,
): Promise<{ loadedAccounts: Map<string, Loaded<AdmissionState>>; accounts: Accounts }> {
  // An account's submissions queue here rather than conflict and start over.
  const admitting = planned
    .filter((p) => p.cmd.bulkId === null && (audits.get(auditStreamId(p.auditId))?.state.status ?? 'None') === 'None')
    .map((p) => accountStreamId(p.cmd.accountId));
  if (admitting.length) await lockStreams(tx, admitting);
  const loadedAccounts = admitting.length
    ? await loadStreams(tx, admissionDecider, admitting)
    : new Map<string, Loaded<AdmissionState>>();
  const accounts: Accounts = new Map(
    [...loadedAccounts].map(([id, l]) => [id, { state: l.state, version: l.version }]),
  );
  return { loadedAccounts, accounts };
}

const freshAudit = (): Loaded<AuditState> => ({
  state: auditDecider.initialState(),
  version: 0,
  events: [],
  snapshotVersion: 0,
});

/** One submission, decided on the state its predecessors in the batch left. */
function decideSubmission(
  batch: Batch,
  index: number,
  { cmd, jobId, auditId, minted }: Submission,
  audits: Map<string, Loaded<AuditState>>,
  accounts: Accounts,
): void {
  const audit = audits.get(auditStreamId(auditId)) ?? freshAudit();
  if (audit.state.status !== 'None') {
    // Requested before: by the first request of its Idempotency-Key (a replay), or, for minted
    // ids, by this very submission in an attempt whose failure came after its commit.
    const first = audit.events[0]!;
    batch.outcomes[index] = {
      ok: true,
      value: { auditId, jobId, replay: !minted, createdAt: first.occurredAt, project: audit.state.project },
    };
    return;
  }
  const meta = { now: cmd.now, correlationId: cmd.correlationId, causationId: null };
  let requested: AuditEvent[];
  let admitted: ReturnType<typeof admissionDecider.decide> = [];
  const account = cmd.bulkId === null ? accounts.get(accountStreamId(cmd.accountId)) : undefined;
  try {
    const suppliedChars = cmd.request.content === null ? {} : { suppliedChars: cmd.request.content.length };
    requested = auditDecider.decide(
      { type: 'RequestAudit', data: { ...requestData(cmd, auditId, jobId), ...suppliedChars } },
      audit.state,
    );
    if (account) admitted = admissionDecider.decide({ type: 'AdmitAudit', data: { auditId } }, account.state);
  } catch (error) {
    batch.outcomes[index] = { ok: false, error };
    return;
  }
  // A racing retry with the same Idempotency-Key committed the request between our two reads:
  // start over, and the first read finds it (a replay).
  if (requested.length === 0) throw new AppError('concurrency_conflict', `audit ${auditId} was requested concurrently`);
  if (account) {
    const streamId = accountStreamId(cmd.accountId);
    batch.appends.push({
      ...meta,
      streamId,
      accountId: cmd.accountId,
      expectedVersion: account.version,
      events: admitted,
    });
    account.state = admitted.reduce((s, e) => admissionDecider.evolve(s, e), account.state);
    account.version += admitted.length;
  }
  batch.accepted.push({
    index,
    append: batch.appends.length,
    value: { auditId, jobId, replay: false, project: cmd.request.project },
  });
  batch.appends.push({
    ...meta,
    streamId: auditStreamId(auditId),
    accountId: cmd.accountId,
    expectedVersion: audit.version,
    events: requested,
  });
  if (cmd.request.content !== null) batch.contents.push(cmd.request.content);
}

const requestData = (cmd: SubmitAuditCommand, auditId: string, jobId: string | null): AuditRequested['data'] => {
  const r = cmd.request;
  return {
    auditId,
    jobId,
    source: cmd.source,
    url: r.url,
    contentRef: r.content === null ? null : contentRefOf(r.content),
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
};
