import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import { handleCommand } from '../../../infra/eventStore/eventStore.ts';
import { asyncProjections } from '../../../projections/index.ts';
import { startProjections } from '../../../projections/runner.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { verifyLedger } from '../../../services/admin/verifyLedger.ts';
import { accountDecider } from '../../../services/domain/account/decider.ts';
import { admissionDecider } from '../../../services/domain/account/admissionView.ts';
import { testDatabase } from '../../helpers/db.ts';
import { testLog } from '../../helpers/testLog.ts';
import { makeSubscriber, type AdapterKind } from '../../helpers/subscribers.ts';

/**
 * Issue 15 / 9: after an audit, an account's last event is AuditReleased, which moves no credit.
 * `ledger verify` used to wait for the ledger projection to reach that event's version, which it
 * never did (its hand-written list left admission events out), and reported a healthy account.
 */
for (const kind of ['store', 'kafka'] as AdapterKind[]) {
  t.test(`${kind}: ledger verify is ok for a healthy account whose last event is not a credit movement`, async (t) => {
    const db = await testDatabase(t);
    const { kafkaSettings } = await testLog(t, kind, db.pool);
    const subscriber = makeSubscriber(kind, db.pool, kafkaSettings);
    t.teardown(() => subscriber.close());
    await startProjections(db.pool, subscriber, asyncProjections);
    const { accountId } = await createAccount(db.pool, { email: `verify-${kind}@example.com`, credits: 2 });
    const streamId = accountStreamId(accountId);
    const run = (decider: typeof accountDecider | typeof admissionDecider, command: unknown) =>
      handleCommand(db.pool, {
        decider: decider as typeof accountDecider,
        streamId,
        accountId,
        command: command as never,
        now: new Date(),
      });

    await run(admissionDecider, { type: 'AdmitAudit', data: { auditId: 'aud_1' } });
    await run(accountDecider, {
      type: 'ChargeCredit',
      data: { kind: 'audit', subjectId: 'aud_1', jobId: 'job_1', url: 'https://example.com/', project: null },
    });
    await run(admissionDecider, { type: 'ReleaseAudit', data: { auditId: 'aud_1' } });
    const last = await db.pool.query<{ type: string }>(
      'SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1',
      [streamId],
    );
    t.equal(last.rows[0]!.type, 'AuditReleased', 'the stream ends with an event that moves no credit');

    const report = await verifyLedger(db.pool, accountId, 30_000);
    t.same(report.problems, [], 'no problem reported');
    t.ok(report.ok);
    t.equal(report.balance, 1);
    t.equal(report.projected, 1);
    t.equal(report.events, 2, 'two credit movements: the starting adjustment and the charge');
  });
}
