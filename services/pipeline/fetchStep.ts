import { auditStreamId } from '../../events/audit/events.ts';
import { contentRefOf, getContent, putContent } from '../../infra/eventStore/contentStore.ts';
import { loadStream, transact, type Loaded } from '../../infra/eventStore/eventStore.ts';
import { fetchPage, type CrawlLimits } from '../../infra/http/crawler.ts';
import type { UrlGuard } from '../../infra/http/guard.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { completeTask, type Task } from '../../infra/taskQueue/taskQueue.ts';
import { reactInStep } from '../../infra/reactions.ts';
import { transactHandingOver } from '../../infra/taskQueue/handOver.ts';
import { ANALYSE } from './tasks.ts';
import { auditDecider, isInFlight, type AuditCommand, type AuditState } from '../domain/audit/decider.ts';
import { isAppError } from '../../core/errors.ts';
import { auditStep, dropTask, failAudit, firstAttemptOnly } from './outcome.ts';

export interface FetchStepDeps {
  pool: Pool;
  guard: UrlGuard;
  limits: Partial<CrawlLimits>;
}

/**
 * queued → running → content: fetches the page through the SSRF guard and records it. A page that
 * cannot be fetched ends the audit with crawl_failed, before any credit is taken (spec 3.1).
 * Supplied content is recorded with its request (the audit decider) and has no fetch task; this
 * step still takes it up for a request made before that, whose content is not recorded yet.
 */
export const fetchStep =
  (deps: FetchStepDeps) =>
  async (task: Task): Promise<void> => {
    const { pool } = deps;
    const loaded = await loadStream(pool, auditDecider, auditStreamId(task.subjectId));
    const { state } = loaded;
    if (!isInFlight(state) || state.contentRef) return dropTask(pool, task);
    const start: AuditCommand = { type: 'StartAudit', data: { attempt: task.attempt } };
    const request = state.request;
    // Supplied content is at hand: the start commits with the content (one commit, not two). A
    // page is started while it is fetched, so that the audit shows `running` during the fetch
    // without the fetch waiting for that commit; the fetch's outcome is recorded after it.
    const started = request.contentRef ? null : startWhileFetching(pool, task, start, loaded);

    let body: string;
    let finalUrl: string | null = null;
    if (request.contentRef) {
      const supplied = await getContent(pool, request.contentRef);
      if (supplied === null) throw new Error(`content ${request.contentRef} is missing from the store`);
      body = supplied;
    } else {
      try {
        const page = await fetchPage(request.url!, { guard: deps.guard, limits: deps.limits });
        body = page.html;
        finalUrl = page.finalUrl;
      } catch (e) {
        if (isAppError(e) && e.code === 'crawl_failed') {
          await started;
          return failAudit(pool, task, 'crawl_failed', e.message, 'fetch');
        }
        throw e;
      }
    }
    const contentRef = request.contentRef ?? contentRefOf(body);
    // The stream as the start left it serves the first attempt (a conflict reads it afresh).
    const stream = firstAttemptOnly((await started) ?? loaded);
    await transactHandingOver(pool, ANALYSE, async (tx, handOver) => {
      const record: AuditCommand = {
        type: 'RecordContent',
        data: { contentRef, format: request.contentRef ? 'text' : 'html', finalUrl, chars: body.length },
      };
      const { events } = await auditStep(tx, task, request.contentRef ? [start, record] : record, stream());
      if (!request.contentRef) await putContent(tx, body);
      // The analysis is due the moment this commits (services/reactions.ts), handed to an idle
      // auditor loop of this process if there is one.
      await reactInStep(tx, events);
      await handOver(tx, task.subjectId);
      await completeTask(tx, task);
    });
  };

/**
 * The page's start, committing while the page is fetched: the stream as it left it. Its failure is
 * the step's, when the step awaits it (held meanwhile, so that it is no unhandled rejection).
 */
function startWhileFetching(
  pool: Pool,
  task: Task,
  start: AuditCommand,
  loaded: Loaded<AuditState>,
): Promise<Loaded<AuditState>> {
  const stream = firstAttemptOnly(loaded);
  const started = transact(pool, async (tx) => (await auditStep(tx, task, start, stream())).after);
  started.catch(() => undefined);
  return started;
}
