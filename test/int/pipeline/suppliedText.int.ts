import t from 'tap';
import { readFileSync } from 'node:fs';
import { accountStreamId } from '../../../events/account/index.ts';
import { auditStreamId } from '../../../events/audit/events.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import { withTransaction, type Pool } from '../../../infra/postgres/pool.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { submitAudit } from '../../../services/pipeline/submitAudit.ts';
import { REACTIONS } from '../../../services/reactions.ts';
import { auditRequest, startPipelineService } from '../../helpers/pipelineService.ts';
import { eventually } from '../../helpers/db.ts';
import type { AdapterKind } from '../../helpers/subscribers.ts';

const markdown = readFileSync(new URL('../../fixtures/engine/strong/en-howto-descale.md', import.meta.url), 'utf8');

const tasksOf = async (pool: Pool, auditId: string) =>
  (
    await pool.query<{ task_id: string; status: string; attempts: number }>(
      'SELECT task_id, status, attempts FROM pipeline_tasks WHERE subject_id = $1 ORDER BY task_id',
      [auditId],
    )
  ).rows;

/** A completed audit's stream, the same for a supplied text as for a fetched page. */
const AUDIT_STREAM = [
  'AuditRequested',
  'AuditStarted',
  'ContentFetched',
  'CsiDerived',
  'AuditCharged',
  'AuditCompleted',
];

/** A supplied text submitted by the API for the account. */
const submitText = (pool: Pool, accountId: string, content: string, keyword: string) =>
  submitAudit(pool, {
    accountId,
    source: 'api',
    request: auditRequest({ content, keyword }),
    idempotencyKey: null,
    bulkId: null,
    now: new Date(),
    correlationId: null,
  });

/** Waits until the audit's row reads completed. */
const untilCompleted = (pool: Pool, auditId: string, ms: number, what: string) =>
  eventually(
    async () =>
      (await pool.query('SELECT status FROM audits WHERE audit_id = $1', [auditId])).rows[0]?.status === 'completed',
    ms,
    what,
  );

// Issue 26: supplied text has nothing to fetch, so its start and content commit with its request
// and the analysis is the only task on its path (no fetch task, claim and commit before it).
for (const kind of ['store', 'kafka'] as AdapterKind[]) {
  t.test(`${kind}: supplied text is started and recorded with its request, then analysed`, async (t) => {
    const { pool } = await startPipelineService(t, kind);
    const account = await createAccount(pool, { email: 'text@example.com', credits: 3 });
    const audit = await submitText(pool, account.accountId, markdown, 'descale a kettle');
    await untilCompleted(pool, audit.auditId, 120_000, 'the text audit to complete');
    const stream = await readStream(pool, auditStreamId(audit.auditId));
    t.same(
      stream.map((e) => e.type),
      AUDIT_STREAM,
      'the same events in the same order as a fetched page',
    );
    t.ok(
      stream.slice(0, 3).every((e) => e.position.txId === stream[0]!.position.txId),
      'request, start and content in the submission transaction',
    );
    t.same(
      stream[2]!.payload,
      {
        contentRef: (stream[0]!.payload as { contentRef: string }).contentRef,
        format: 'text',
        finalUrl: null,
        chars: markdown.length,
      },
      'the content recorded is the supplied text',
    );
    t.ok(
      stream[4]!.position.txId > stream[2]!.position.txId,
      'charged after the content and the CSI (spec 3.1), in a later transaction',
    );
    t.same(
      await tasksOf(pool, audit.auditId),
      [{ task_id: `analyse:${audit.auditId}`, status: 'done', attempts: 1 }],
      'one task, the analysis, claimed once: no fetch task',
    );

    // The subscription runs the same reactions on the request (the record, e.g. after a restart):
    // it must not make a fetch task for supplied text either.
    await withTransaction(pool, async (tx) => {
      for (const r of REACTIONS.filter((r) => r.group === 'pipeline.tasks'))
        await r.react(
          tx,
          stream.filter((e) => r.on.includes(e.type)),
          { shareDayMs: 86_400_000 },
        );
    });
    t.same(
      (await tasksOf(pool, audit.auditId)).map((r) => r.task_id),
      [`analyse:${audit.auditId}`],
      'replaying the request through its reactions adds no fetch task',
    );
  });
}

// Issue 26: a short text's scoring is done before its charge commits; the audit's outcome then
// commits with the charge (one transaction, not two), each stream's events as before.
t.test('a scoring done before the charge commits completes the audit in the charge transaction', async (t) => {
  const { pool } = await startPipelineService(t, 'store');
  const account = await createAccount(pool, { email: 'short@example.com', credits: 10 });
  const short = 'City bicycles need light frames, hub gears and good lights for daily riding. '.repeat(10);
  const txOf = (e: { position: { txId: bigint } }) => e.position.txId;
  let together = 0;
  for (let i = 0; i < 8 && together === 0; i++) {
    const audit = await submitText(pool, account.accountId, `${short}\n\nNote ${i}.`, 'city bicycle');
    await untilCompleted(pool, audit.auditId, 60_000, 'the short text to complete');
    const stream = await readStream(pool, auditStreamId(audit.auditId));
    t.same(
      stream.map((e) => e.type),
      AUDIT_STREAM,
      'the audit stream as always',
    );
    const about = (e: { payload: unknown }) => e.payload as { auditId?: string; subjectId?: string };
    const mine = (await readStream(pool, accountStreamId(account.accountId))).filter(
      (e) => about(e).auditId === audit.auditId || about(e).subjectId === audit.auditId,
    );
    t.same(
      mine.map((e) => e.type),
      ['AuditAdmitted', 'CreditCharged', 'AuditReleased'],
      'the account stream as always: admitted, charged once, released',
    );
    const [charged, completed] = [stream[4]!, stream[5]!];
    if (txOf(charged) === txOf(completed)) {
      together++;
      t.equal(txOf(mine[1]!), txOf(charged), 'CreditCharged in the same transaction');
      t.equal(txOf(mine[2]!), txOf(charged), 'AuditReleased in the same transaction');
      t.ok(
        mine[1]!.position.seq < stream[4]!.position.seq && stream[5]!.position.seq < mine[2]!.position.seq,
        'in the log: CreditCharged, CsiDerived, AuditCharged, AuditCompleted, AuditReleased, as two commits had it',
      );
    }
  }
  t.equal(together, 1, 'one of the short texts had its outcome committed with its charge');
});
