import { accountStreamId } from '../../events/account/index.ts';
import { auditStreamId } from '../../events/audit/events.ts';
import { getContent, putContent } from '../../infra/eventStore/contentStore.ts';
import { decideInTransaction, loadStream, transact, type Loaded } from '../../infra/eventStore/eventStore.ts';
import type { Pool, Queryable } from '../../infra/postgres/pool.ts';
import { storableJson } from '../../infra/postgres/storableText.ts';
import type { Task } from '../../infra/taskQueue/taskQueue.ts';
import { accountDecider, chargeIdFor, chargeOf } from '../domain/account/decider.ts';
import {
  auditDecider,
  isInFlight,
  type AuditCommand,
  type AuditState,
  type InFlightAudit,
} from '../domain/audit/decider.ts';
import type { EngineInput, EngineResult } from '../engine/types.ts';
import {
  auditStep,
  dropTask,
  failAudit,
  finishAudit,
  finishAuditInTransaction,
  firstAttemptOnly,
  metaOf,
} from './outcome.ts';
import { isAppError, type ErrorCode } from '../../core/errors.ts';
import { loadBenchmarkInput, type BenchmarkDeps } from './benchmarkInput.ts';
import { auditOnPool, prepareOnPool } from './engine.ts';
import { CpuTimeLimitError } from '../../infra/workers/cpuPool.ts';

export interface AnalyseStepDeps extends BenchmarkDeps {
  pool: Pool;
  /** Length of a share link's day (SHARE_DAY_SECONDS): `share: true` issues its link at completion. */
  shareDayMs?: number;
}

/** errorMessage of audit_failed: meant for the client; the cause is logged under the job id. */
const AUDIT_FAILED_CHARGE = 'The credit stays charged (spec 3.1).';
export const AUDIT_FAILED_MESSAGE = `The content was fetched and analysed, but scoring it failed because of an error in the service. ${AUDIT_FAILED_CHARGE} Quote the job id when reporting it.`;

/** Preparation failures the spec names (2.2); anything else is a bug and the task is retried. */
const PREPARATION_CODES: Partial<
  Record<
    ErrorCode,
    'crawl_failed' | 'keyword_required' | 'csi_failed' | 'content_too_large' | 'config_error' | 'audit_failed'
  >
> = {
  crawl_failed: 'crawl_failed',
  keyword_required: 'keyword_required',
  csi_failed: 'csi_failed',
  content_too_large: 'content_too_large',
  config_error: 'config_error',
  // Supplied text whose running text is under 50 characters once its markup is gone.
  invalid_request: 'csi_failed',
  // The preparation ran past the engine's time limit (CpuTimeLimitError): before the charge, so free.
  audit_failed: 'audit_failed',
};

type Request = InFlightAudit['request'];
type Benchmark = EngineInput['benchmark'];

/** What the analysis runs on: the stored content and the request's fields. */
async function engineInputOf(pool: Pool, state: InFlightAudit & { contentRef: string }) {
  const content = await getContent(pool, state.contentRef);
  if (content === null) throw new Error(`content ${state.contentRef} is missing from the store`);
  const { request } = state;
  return {
    content,
    format: state.format ?? undefined,
    title: request.title,
    url: request.url,
    keyword: request.keyword,
    language: request.language,
  } satisfies EngineInput;
}

type RecordCsi = AuditCommand & { type: 'RecordCsi' };

/** The CSI derived by this run, recorded on its own where it cannot go with the charge. */
const recordCsi = (pool: Pool, task: Task, csi: RecordCsi | null): Promise<unknown> =>
  csi ? transact(pool, (tx) => auditStep(tx, task, csi)) : Promise.resolve();

/**
 * The CSI and the SERP benchmark: the keyword and language the engine resolved, with the CSI to
 * record (null: recorded before), or null when the audit failed here (a preparation failure the
 * spec names, free of charge). The CSI is recorded with the charge, in its transaction (one commit
 * fewer); where the audit fails here it is recorded first, so the stream tells what it told before.
 */
async function prepare(
  deps: AnalyseStepDeps,
  task: Task,
  state: InFlightAudit,
  input: EngineInput,
): Promise<{ keyword: string; language: string; benchmark: Benchmark; csi: RecordCsi | null } | null> {
  let keyword = state.keyword;
  let language = state.language;
  let csi: RecordCsi | null = null;
  try {
    if (!state.csiDerived) {
      const prepared = await prepareOnPool(input);
      ({ keyword, language } = prepared);
      csi = { type: 'RecordCsi', data: { keyword: prepared.keyword, language: prepared.language, ...prepared.csi } };
    }
    const benchmark = await loadBenchmarkInput(deps, keyword!, language!);
    return { keyword: keyword!, language: language!, benchmark, csi };
  } catch (e) {
    const code = isAppError(e) ? PREPARATION_CODES[e.code] : undefined;
    if (code) {
      await recordCsi(deps.pool, task, csi);
      await failAudit(deps.pool, task, code, (e as Error).message, 'analyse');
      return null;
    }
    throw e;
  }
}

/** The scoring's outcome; `settled` once it is there (read by the charge's transaction). */
interface Scoring {
  done: Promise<{ ok: true; result: EngineResult } | { ok: false; error: unknown }>;
  settled: { ok: true; result: EngineResult } | { ok: false; error: unknown } | null;
}

/**
 * Starts the scoring on the pool. It does not depend on the charge, so it runs while the charge's
 * transaction does (one round of statements and a commit off the page's path); its result is
 * recorded only with or after the charge, and dropped when the charge is refused (a rejection
 * nobody awaits yet is no crash: it is held as an outcome).
 */
function startScoring(input: EngineInput, benchmark: Benchmark): Scoring {
  const scoring: Scoring = {
    done: auditOnPool({ ...input, benchmark }).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    settled: null,
  };
  void scoring.done.then((outcome) => (scoring.settled = outcome));
  return scoring;
}

/** The completion of a scoring that succeeded; throws what makes the audit fail (score()). */
function completionOf(outcome: Awaited<Scoring['done']>): { cqs: number | null; resultJson: string } {
  if (!outcome.ok) throw outcome.error;
  // Becomes a jsonb column: SERP titles or competitor pages may carry a NUL (storableText.ts).
  return { cqs: outcome.result.scores.cqs, resultJson: storableJson(outcome.result) };
}

/**
 * How long the charge's transaction, its charge recorded, waits for a scoring still at work before
 * it commits without it. A short text's scoring ends within it, and its outcome then commits with
 * the charge (one transaction instead of two). Waiting costs the audit nothing: its completion
 * waits for the scoring anyway. What it costs is the transaction held open that long: another
 * writer of the account's stream (a submission, another audit's charge) may wait as long.
 */
const SCORING_WAIT_MS = 10;

/**
 * The completion for the charge's transaction: when the scoring has succeeded by then (within
 * SCORING_WAIT_MS), its outcome commits with the charge. Null otherwise (still at work, or
 * failed: score() ends it after the charge, the credit kept).
 */
async function readyCompletion(scoring: Scoring): Promise<{ cqs: number | null; resultJson: string } | null> {
  let timer: NodeJS.Timeout | undefined;
  const outcome =
    scoring.settled ??
    (await Promise.race([
      scoring.done,
      new Promise<null>((r) => (timer = setTimeout(() => r(null), SCORING_WAIT_MS))),
    ]));
  clearTimeout(timer);
  if (!outcome?.ok) return null;
  try {
    return completionOf(outcome);
  } catch {
    return null;
  }
}

/**
 * The SERP baseline is kept for apply's measurement (spec 2.6: the new text against the same SERP
 * baseline). Immutable and content-addressed: committed no later than the event that names it, so a
 * crash in between leaves at most an unreferenced blob that the retry names again.
 */
const keepBenchmark = (db: Queryable, benchmark: Benchmark): Promise<string | null> =>
  benchmark ? putContent(db, JSON.stringify(benchmark)) : Promise.resolve(null);

interface ChargeInput {
  /** The audit's stream as the step read it (its first attempt decides on it). */
  loaded: Loaded<InFlightAudit>;
  csi: RecordCsi | null;
  scoring: Scoring;
  benchmark: Benchmark;
}

type Charged = { outcome: 'refused' } | { outcome: 'completed' } | { outcome: 'charged'; after: Loaded<AuditState> };

/**
 * Takes the audit's credit on the account stream and records it on the audit's, after the CSI
 * when this run derived it, and, when the scoring has already succeeded, completes the audit in
 * the same transaction (the charge commits as it would have, its outcome with it). `refused`: no
 * credit left (nothing recorded); `charged`: the stream as the charge left it, for the completion.
 */
const charge = (deps: AnalyseStepDeps, task: Task, { loaded, csi, scoring, benchmark }: ChargeInput) => {
  const { state } = loaded;
  const audit = firstAttemptOnly<AuditState>(loaded);
  return transact(deps.pool, async (tx): Promise<Charged> => {
    try {
      const { state: account } = await decideInTransaction(tx, {
        ...metaOf(task),
        decider: accountDecider,
        streamId: accountStreamId(task.accountId),
        accountId: task.accountId,
        command: {
          type: 'ChargeCredit',
          data: {
            kind: 'audit',
            subjectId: task.subjectId,
            jobId: state.request.jobId,
            url: state.request.url,
            project: state.project,
          },
        },
      });
      // The audit's charge, taken now or before (a batch's entry was charged when its batch reserved
      // it); none: the account is unlimited and pays nothing (spec 2.8).
      const taken = chargeOf(account, 'audit', task.subjectId);
      const kept = taken && !taken.refunded ? taken : undefined;
      const recordCharge: AuditCommand = {
        type: 'RecordCharge',
        data: { chargeId: kept ? chargeIdFor('audit', task.subjectId) : null, credits: kept ? kept.credits : 0 },
      };
      const { after } = await auditStep(tx, task, csi ? [csi, recordCharge] : recordCharge, audit());
      const completion = await readyCompletion(scoring);
      if (completion === null) return { outcome: 'charged', after };
      const benchmarkRef = await keepBenchmark(tx, benchmark);
      await finishAuditInTransaction(
        tx,
        task,
        { type: 'CompleteAudit', data: { ...completion, benchmarkRef } },
        { shareDayMs: deps.shareDayMs, loaded: after },
      );
      return { outcome: 'completed' };
    } catch (e) {
      if (isAppError(e) && e.code === 'insufficient_credits') return { outcome: 'refused' };
      throw e;
    }
  });
};

/** Completes the audit with the scoring's result, or fails it with the credit kept (spec 3.1). */
async function score(
  deps: AnalyseStepDeps,
  task: Task,
  request: Request,
  scoring: Scoring,
  benchmark: Benchmark,
  loaded: Loaded<AuditState>,
): Promise<void> {
  let completion: { cqs: number | null; resultJson: string };
  try {
    completion = completionOf(await scoring.done);
  } catch (e) {
    // After the charge: the audit fails and the credit stays taken (spec 3.1). The client reads
    // what happened; the exception itself goes to the log under the job and audit ids.
    deps.log.error({ err: e, jobId: request.jobId, auditId: task.subjectId }, 'the scoring failed');
    const message = e instanceof CpuTimeLimitError ? `${e.message} ${AUDIT_FAILED_CHARGE}` : AUDIT_FAILED_MESSAGE;
    return failAudit(deps.pool, task, 'audit_failed', message, 'score');
  }
  const benchmarkRef = await keepBenchmark(deps.pool, benchmark);
  await finishAudit(
    deps.pool,
    task,
    { type: 'CompleteAudit', data: { ...completion, benchmarkRef } },
    deps.shareDayMs,
    loaded,
  );
}

/**
 * content → CSI → credit → score → completed. The credit is taken only once the content is there
 * and its CSI derived (spec 3.1): a failure before that costs nothing, one after it (the scoring)
 * is not refunded. The scoring's CPU work starts with the charge (its result waits for it, and
 * commits with it when it is there first): a refused charge, a race with the account's last
 * credit, wastes one scoring within the engine's time limit, and the result is never recorded.
 * Every step is idempotent, so a worker that died anywhere can be followed by another that picks
 * up where the stream stands. The stream read at the start serves each transaction's first
 * attempt, each step's outcome the next one's (a conflict reads it afresh).
 */
export const analyseStep =
  (deps: AnalyseStepDeps) =>
  async (task: Task): Promise<void> => {
    const { pool } = deps;
    const loaded = await loadStream(pool, auditDecider, auditStreamId(task.subjectId));
    const { state } = loaded;
    if (!isInFlight(state) || !state.contentRef) return dropTask(pool, task);
    const request = state.request;
    const input = await engineInputOf(pool, { ...state, request, contentRef: state.contentRef });
    const prepared = await prepare(deps, task, state, input);
    if (prepared === null) return;
    const { keyword, language, benchmark, csi } = prepared;
    const scoring = startScoring({ ...input, keyword, language }, benchmark);
    let after: Loaded<AuditState> = loaded;
    if (!state.charged) {
      const charged = await charge(deps, task, { loaded: { ...loaded, state }, csi, scoring, benchmark });
      if (charged.outcome === 'completed') return;
      if (charged.outcome === 'refused') {
        await recordCsi(pool, task, csi);
        return failAudit(
          pool,
          task,
          'insufficient_credits',
          'The account ran out of credits when the audit started',
          'charge',
        );
      }
      after = charged.after;
    }
    await score(deps, task, request, scoring, benchmark, after);
  };
