import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { createLogger } from '../../../infra/logger.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { asyncProjections } from '../../../projections/index.ts';
import { startProjections } from '../../../projections/runner.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { verifyLedger } from '../../../services/admin/verifyLedger.ts';
import { startRelay } from '../../../services/relay/relay.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';
import { CHARGE_LOG, ChargeRequested } from './fixtures/chargeRequests.ts';
import { checkStream } from './fixtures/ledgerChecks.ts';

t.test('a charging process SIGKILLed mid-step on real Kafka, then restarted: no charge lost or doubled', async (t) => {
  const db = await testDatabase(t);
  await db.pool.query(CHARGE_LOG);
  const { kafka, settings } = await testKafka(t, 2);
  const relay = await startRelay({ pool: db.pool, kafka, settings, log: createLogger('test-relay'), pollMs: 10 });
  t.teardown(() => relay.stop());
  const projections = makeSubscriber('store', db.pool);
  t.teardown(() => projections.close());
  await startProjections(db.pool, projections, asyncProjections);

  // Two accounts (so both Kafka partitions may carry work); each has 30 credits and receives 40
  // requests for 34 distinct audits (6 are repeats): 30 charges pass, the rest are refused.
  const accounts = [
    await createAccount(db.pool, { email: 'k1@example.com', credits: 30 }),
    await createAccount(db.pool, { email: 'k2@example.com', credits: 30 }),
  ];
  const requestsPer = 40;
  // Appended one at a time, accounts interleaved, with a pause: the consumer sees small batches and
  // commits several before the one it is killed in.
  const appendRequests = async (from: number, to: number, pauseMs = 0) => {
    for (let n = from; n < to; n++) {
      for (const { accountId } of accounts) {
        const subjectId = `aud_${accountId}_${n < 34 ? n : n - 34}`;
        await withTransaction(db.pool, (tx) =>
          appendToStream(tx, {
            streamId: `test-charges-${accountId}`,
            accountId,
            expectedVersion: n,
            now: new Date(),
            events: [ChargeRequested({ subjectId, n })],
          }),
        );
      }
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const handledCount = async () =>
    (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM charge_log`)).rows[0]!.n;

  const spawnCharger = (mode: 'crash' | 'run', member: string): { child: ChildProcess; output: () => string } => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/int/ledger/fixtures/chargerChild.ts',
        db.url,
        JSON.stringify(settings),
        mode,
        '23',
        member,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // Killed in any case: a child left hanging in its transaction would hold every log reader back.
    t.teardown(() => {
      child.kill('SIGKILL');
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    return { child, output: () => out };
  };

  const first = spawnCharger('crash', 'first');
  await appendRequests(0, 1);
  await eventually(async () => (await handledCount()) === 2, 90_000, 'the charger to handle the first requests');
  await appendRequests(1, 25, 20);
  await eventually(async () => first.output().includes('MID_STEP'), 90_000, 'the charger to stop mid-step');
  const inFlight = await db.pool.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction'`,
  );
  t.ok(inFlight.rows[0].n >= 1, 'its transaction is open, with a charge appended in it');
  first.child.kill('SIGKILL');
  await once(first.child, 'exit');

  const committed = await handledCount();
  t.ok(committed >= 2 && committed < 23, `${committed} requests committed before the kill; the step in flight is gone`);
  const chargedBefore = (
    await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'CreditCharged'`)
  ).rows[0]!.n;
  t.ok(chargedBefore <= committed, 'no charge of the killed transaction is in the log');
  await appendRequests(25, requestsPer);

  const second = spawnCharger('run', 'second');
  await eventually(
    async () =>
      (await db.pool.query<{ n: number }>('SELECT count(DISTINCT request_id)::int AS n FROM charge_log')).rows[0]!.n ===
      accounts.length * requestsPer,
    120_000,
    'every request handled',
  );
  // Give a double application the chance to show before counting.
  await new Promise((r) => setTimeout(r, 500));

  const log = await db.pool.query<{ request_id: string; n: number }>(
    'SELECT request_id, count(*)::int AS n FROM charge_log GROUP BY request_id HAVING count(*) > 1',
  );
  t.same(log.rows, [], 'each request handled exactly once (checkpoint and charge committed together)');
  for (const { accountId } of accounts) {
    const { charged, balance } = await checkStream(t, db.pool, accountId);
    t.equal(charged.size, 30, `${accountId}: 30 audits charged, once each`);
    t.equal(balance, 0, `${accountId}: balance 0, never below`);
    const outcomes = await db.pool.query<{ outcome: string; n: number }>(
      `SELECT outcome, count(*)::int AS n FROM charge_log WHERE subject_id LIKE $1 GROUP BY outcome ORDER BY outcome`,
      [`aud_${accountId}_%`],
    );
    const by = Object.fromEntries(outcomes.rows.map((r) => [r.outcome, r.n]));
    t.equal(by.charged, 30, 'a charged outcome per charge event');
    t.equal((by.charged ?? 0) + (by.already ?? 0) + (by.insufficient_credits ?? 0), requestsPer);
    const report = await verifyLedger(db.pool, accountId, 30_000);
    t.ok(report.ok, `ledger verify ok: ${JSON.stringify(report.problems)}`);
    t.same([report.balance, report.projected], [0, 0]);
  }
  second.child.kill('SIGTERM');
});
