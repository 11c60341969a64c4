import t from 'tap';
import { auditStreamId } from '../../../events/audit/events.ts';
import { accountStreamId } from '../../../events/account/index.ts';
import { decideInTransaction, loadStream, readStream, transact } from '../../../infra/eventStore/eventStore.ts';
import { claimTaskById, enqueueTask } from '../../../infra/taskQueue/taskQueue.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { assignProject } from '../../../services/admin/audits.ts';
import { accountDecider, chargeIdFor } from '../../../services/domain/account/decider.ts';
import { auditDecider } from '../../../services/domain/audit/decider.ts';
import { auditStep, finishAudit, metaOf } from '../../../services/pipeline/outcome.ts';
import { submitAudit } from '../../../services/pipeline/submitAudit.ts';
import { ANALYSE } from '../../../services/pipeline/tasks.ts';
import { testDatabase } from '../../helpers/db.ts';
import { auditRequest } from '../../helpers/pipelineService.ts';

// Issue 26: the analyse step decides each transaction's first attempt on the stream as it last
// knew it instead of reading it again. Where the stream moved meanwhile (an operator reassigned
// the audit's project), that attempt's append conflicts and the retry decides on a fresh read:
// nothing is lost, nothing recorded twice.
t.test('a completion decided on a stream that moved since is retried on a fresh read', async (t) => {
  const { pool } = await testDatabase(t);
  const account = await createAccount(pool, { email: 'stale@example.com', credits: 2 });
  const audit = await submitAudit(pool, {
    accountId: account.accountId,
    source: 'api',
    request: auditRequest({
      content: 'City bicycles need light frames and good lights. '.repeat(4),
      keyword: 'city bicycle',
    }),
    idempotencyKey: null,
    bulkId: null,
    now: new Date(),
    correlationId: null,
  });
  await enqueueTask(pool, ANALYSE, account.accountId, audit.auditId);
  const task = (await claimTaskById(pool, ANALYSE, audit.auditId, 60))!;
  // The charge, as the analyse step records it; `after` is what the step knows of the stream then.
  const { after } = await transact(pool, async (tx) => {
    await decideInTransaction(tx, {
      ...metaOf(task),
      decider: accountDecider,
      streamId: accountStreamId(account.accountId),
      accountId: account.accountId,
      command: {
        type: 'ChargeCredit',
        data: { kind: 'audit', subjectId: audit.auditId, jobId: audit.jobId, url: null, project: null },
      },
    });
    return auditStep(
      tx,
      task,
      [
        {
          type: 'RecordCsi',
          data: {
            keyword: 'city bicycle',
            language: 'en',
            centralEntity: 'city bicycle',
            sourceContext: 'blog',
            centralSearchIntent: 'know',
            predicate: 'needs',
          },
        },
        { type: 'RecordCharge', data: { chargeId: chargeIdFor('audit', audit.auditId), credits: 1 } },
      ],
      await loadStream(tx, auditDecider, auditStreamId(audit.auditId)),
    );
  });
  await assignProject(pool, { auditId: audit.auditId, project: 'Moved' });

  await finishAudit(
    pool,
    task,
    { type: 'CompleteAudit', data: { cqs: 70, resultJson: '{}', benchmarkRef: null } },
    86_400_000,
    after,
  );
  const stream = await readStream(pool, auditStreamId(audit.auditId));
  t.same(
    stream.map((e) => e.type),
    [
      'AuditRequested',
      'AuditStarted',
      'ContentFetched',
      'CsiDerived',
      'AuditCharged',
      'AuditProjectAssigned',
      'AuditCompleted',
    ],
    'the completion follows the reassignment it was not decided on at first',
  );
  const final = await loadStream(pool, auditDecider, auditStreamId(audit.auditId));
  t.equal(final.state.status, 'completed');
  t.equal(final.state.status === 'completed' && final.state.project, 'Moved', 'the reassignment kept');
  const released = (await readStream(pool, accountStreamId(account.accountId))).filter(
    (e) => e.type === 'AuditReleased',
  );
  t.equal(released.length, 1, 'its place in flight given back once');
});
