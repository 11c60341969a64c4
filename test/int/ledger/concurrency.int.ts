import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import { handleCommand } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { asyncProjections } from '../../../projections/index.ts';
import { startProjections } from '../../../projections/runner.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { verifyLedger } from '../../../services/admin/verifyLedger.ts';
import { accountDecider, type AccountCommand } from '../../../services/domain/account/decider.ts';
import { isAppError } from '../../../core/errors.ts';
import { testDatabase } from '../../helpers/db.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';
import { checkStream } from './fixtures/ledgerChecks.ts';

/** Runs commands with `workers` in flight at once; returns each command's outcome. */
async function race(pool: Pool, accountId: string, commands: AccountCommand[], workers: number): Promise<string[]> {
  const outcomes: string[] = new Array(commands.length);
  let next = 0;
  const worker = async () => {
    while (next < commands.length) {
      const i = next++;
      for (;;) {
        try {
          const r = await handleCommand(pool, {
            decider: accountDecider,
            streamId: accountStreamId(accountId),
            accountId,
            command: commands[i]!,
            now: new Date(),
          });
          outcomes[i] = r.events.length ? 'done' : 'repeat';
          break;
        } catch (e) {
          // handleCommand already retried a lost race 20 times; a caller (consumer batch) retries again.
          if (isAppError(e) && e.code === 'concurrency_conflict') continue;
          outcomes[i] = isAppError(e) ? e.code : `unexpected: ${(e as Error).message}`;
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}

const shuffle = <T>(xs: T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

t.test('many charges, repeats and purchases racing on one account over real PostgreSQL', async (t) => {
  const db = await testDatabase(t, 40);
  const subscriber = makeSubscriber('store', db.pool);
  t.teardown(() => subscriber.close());
  await startProjections(db.pool, subscriber, asyncProjections);
  const { accountId } = await createAccount(db.pool, { email: 'race@example.com', credits: 10 });

  // 150 audits each charged twice (a retry racing its original), 60 one-credit purchases each sent
  // twice, all shuffled together: at most 10 + 60 = 70 charges can pass.
  const charges: AccountCommand[] = Array.from({ length: 150 }, (_, i) => ({
    type: 'ChargeCredit',
    data: { kind: 'audit', subjectId: `aud_${i}`, jobId: `job_${i}`, url: `https://example.com/${i}`, project: null },
  }));
  const purchases: AccountCommand[] = Array.from({ length: 60 }, (_, i) => ({
    type: 'PurchaseCredits',
    data: { paymentId: `pay_${i}`, credits: 1 },
  }));
  const commands = shuffle([...charges, ...charges, ...purchases, ...purchases]);
  const outcomes = await race(db.pool, accountId, commands, 24);

  t.same(
    outcomes.filter((o) => !['done', 'repeat', 'insufficient_credits'].includes(o)),
    [],
    'no other outcome than done, repeat or 402',
  );
  const { charged, balance } = await checkStream(t, db.pool, accountId);
  const purchased = commands.filter((c, i) => c.type === 'PurchaseCredits' && outcomes[i] === 'done').length;
  t.equal(purchased, 60, 'every purchase recorded once, its repeat a no-op');
  // No charge lost: an audit whose charge was accepted (done, or repeat of a done) is charged once;
  // an audit refused every time is not charged.
  for (let i = 0; i < 150; i++) {
    const accepted = commands.some(
      (c, k) => c.type === 'ChargeCredit' && c.data.subjectId === `aud_${i}` && outcomes[k] === 'done',
    );
    if (accepted !== (charged.get(`aud_${i}`) === 1))
      t.fail(`aud_${i}: accepted ${accepted}, charged ${charged.get(`aud_${i}`) ?? 0}`);
  }
  t.equal(
    commands.filter((c, i) => c.type === 'ChargeCredit' && outcomes[i] === 'done').length,
    charged.size,
    'one event per accepted charge',
  );
  t.equal(balance, 10 + 60 - charged.size, 'balance = credits in - charges');
  t.ok(charged.size >= 1 && charged.size <= 70, `${charged.size} audits charged`);

  // Refunds racing with their own repeats: each charge refunded once.
  const refunds: AccountCommand[] = [...charged.keys()].slice(0, 20).flatMap((subjectId) => {
    const c: AccountCommand = { type: 'RefundCharge', data: { kind: 'audit', subjectId, reason: 'audit failed' } };
    return [c, c, c];
  });
  const refundOutcomes = await race(db.pool, accountId, shuffle(refunds), 24);
  t.equal(
    refundOutcomes.filter((o) => o === 'done').length,
    Math.min(20, charged.size),
    'each charge refunded exactly once',
  );
  const after = await checkStream(t, db.pool, accountId);
  t.equal(after.balance, balance + Math.min(20, charged.size));

  const report = await verifyLedger(db.pool, accountId, 30_000);
  t.ok(report.ok, `ledger verify: ${JSON.stringify(report.problems)}`);
  t.equal(report.balance, after.balance);
  t.equal(report.projected, after.balance);
  t.equal(report.historySum, after.balance);
});
