import t from 'tap';
import { runAccountCommand } from '../../../services/accounts/accountCommand.ts';
import { accountsProjection } from '../../../projections/accounts/projection.ts';
import { asyncProjections } from '../../../projections/index.ts';
import { ledgerProjection } from '../../../projections/ledger/projection.ts';
import { ledgerBalance } from '../../../projections/ledger/queries.ts';
import { dumpProjection, rebuildProjection, startProjections } from '../../../projections/runner.ts';
import {
  adjustCredits,
  createAccount,
  createKey,
  purchaseCredits,
  revokeKey,
} from '../../../services/admin/operations.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';

/** Every read model of this issue is a projection of the log: rebuilt from zero, it equals the live one. */
t.test('accounts (inline) and ledger (async) projections: a rebuild equals the live tables', async (t) => {
  const db = await testDatabase(t);
  const subscriber = makeSubscriber('store', db.pool);
  t.teardown(() => subscriber.close());
  await startProjections(db.pool, subscriber, asyncProjections);

  const accounts = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      createAccount(db.pool, { email: `r${i}@example.com`, credits: i, unlimited: i === 5 }),
    ),
  );
  for (const [i, a] of accounts.entries()) {
    const extra = await createKey(db.pool, { accountId: a.accountId, scopes: ['audits:read'] });
    if (i % 2) await revokeKey(db.pool, { keyId: extra.keyId });
    await purchaseCredits(db.pool, { accountId: a.accountId, credits: 3 + i });
    for (let n = 0; n < 4; n++) {
      const kind = n % 2 ? 'apply' : 'audit';
      const subjectId = kind === 'audit' ? `aud_${i}_${n}` : `rev_${i}_${n}`;
      await runAccountCommand(db.pool, {
        accountId: a.accountId,
        now: new Date(),
        command: {
          type: 'ChargeCredit',
          data: { kind, subjectId, jobId: null, url: `https://e.com/${n}`, project: n ? 'p' : null },
        },
      });
      if (n === 2)
        await runAccountCommand(db.pool, {
          accountId: a.accountId,
          now: new Date(),
          command: { type: 'RefundCharge', data: { kind, subjectId, reason: 'failed' } },
        });
    }
    if (i % 3 === 0)
      await adjustCredits(db.pool, { accountId: a.accountId, delta: 2, reason: 'correction', actor: 'ops' });
    await runAccountCommand(db.pool, {
      accountId: a.accountId,
      now: new Date(),
      command: { type: 'SetUnlimited', data: { unlimited: i % 2 === 0, actor: 'ops', reason: 'test' } },
    });
  }
  const versions = await db.pool.query<{ account_id: string; v: number }>(
    `SELECT account_id, max(stream_version)::int AS v FROM events GROUP BY account_id`,
  );
  await eventually(
    async () => {
      for (const r of versions.rows) if ((await ledgerBalance(db.pool, r.account_id)).streamVersion < r.v) return false;
      return true;
    },
    30_000,
    'the ledger to catch up',
  );

  for (const projection of [accountsProjection, ledgerProjection]) {
    await rebuildProjection(db.pool, projection, `rebuild_${projection.name}`);
    const live = await dumpProjection(db.pool, projection, 'public');
    const rebuilt = await dumpProjection(db.pool, projection, `rebuild_${projection.name}`);
    t.ok(
      Object.values(live).every((rows) => rows.length > 0),
      `${projection.name}: live tables have rows`,
    );
    t.same(rebuilt, live, `${projection.name}: rebuilt == live`);
  }
  const revoked = await db.pool.query(`SELECT count(*)::int AS n FROM rebuild_accounts.api_keys WHERE revoked`);
  t.equal(revoked.rows[0].n, 3, 'revocations replayed');
});
