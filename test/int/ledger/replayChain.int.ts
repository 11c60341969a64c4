import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import { creditMovementTypes } from '../../../events/catalogue.ts';
import { checkChain } from '../../../infra/eventStore/hashChain.ts';
import { handleCommand } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { ledgerProjection } from '../../../projections/ledger/projection.ts';
import { createProjectionTables, rebuildProjection, startProjections } from '../../../projections/runner.ts';
import { replayLedger } from '../../../services/admin/replayLedger.ts';
import { verifyLedger } from '../../../services/admin/verifyLedger.ts';
import { accountDecider } from '../../../services/domain/account/decider.ts';
import { admin } from '../../helpers/adminCli.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { appendRandomAccounts } from '../../helpers/randomLedger.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';

const seed = Number(process.env.LEDGER_SEED ?? Date.now() % 1_000_000);
t.comment(`random ledger seed ${seed} (LEDGER_SEED=${seed} repeats this run)`);

const creditRows = async (pool: Pool, accountId: string) =>
  (
    await pool.query<{ seq: string; stream_version: number; position: string; type: string }>(
      `SELECT seq::text, stream_version, tx_id::text || ':' || seq AS position, type FROM events WHERE stream_id = $1 AND type = ANY($2) ORDER BY stream_version`,
      [accountStreamId(accountId), creditMovementTypes],
    )
  ).rows;

/** Until the ledger projection has folded every account stream to its last event. */
const ledgerCaughtUp = (pool: Pool) =>
  eventually(
    async () => {
      const r = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT stream_id, max(stream_version) AS v FROM events GROUP BY stream_id) s
        LEFT JOIN ledger_accounts l ON 'account-' || l.account_id = s.stream_id WHERE l.stream_version IS DISTINCT FROM s.v`,
      );
      return r.rows[0]!.n === 0;
    },
    120_000,
    'the ledger projection to fold every account',
  );

t.test(
  'replay from the log equals the ledger projection for 1,000 random accounts, and every chain holds',
  async (t) => {
    const db = await testDatabase(t);
    const ids = await appendRandomAccounts(db.pool, { accounts: 1_000, steps: 14, seed });
    // The ledger projection's own code folds the whole log (a rebuild: same handler, no polling).
    await rebuildProjection(db.pool, ledgerProjection, 'ledger_check');

    const projected = new Map(
      (
        await db.pool.query<{ account_id: string; remaining: number; used: number; entries: number }>(
          'SELECT account_id, remaining, used, entries FROM ledger_check.ledger_accounts',
        )
      ).rows.map((r) => [r.account_id, r]),
    );
    let compared = 0;
    let movements = 0;
    for (const id of ids) {
      const replay = await replayLedger(db.pool, id);
      const p = projected.get(id)!;
      const own = {
        balance: replay.balance,
        used: replay.used,
        entries: replay.entries.filter((e) => e.type !== 'CreditRefunded').length,
      };
      const theirs = { balance: p.remaining, used: p.used, entries: p.entries };
      if (JSON.stringify(own) !== JSON.stringify(theirs))
        t.fail(`${id}: replay ${JSON.stringify(own)} != projection ${JSON.stringify(theirs)}`);
      const sum = replay.entries.reduce((s, e) => s + e.delta, 0);
      if (sum !== replay.balance || (replay.entries.at(-1)?.balance ?? 0) !== replay.balance)
        t.fail(`${id}: running balance does not add up`);
      const chain = await checkChain(db.pool, accountStreamId(id));
      if (chain.problems.length || chain.chained !== replay.entries.length)
        t.fail(`${id}: chain ${JSON.stringify(chain)}`);
      compared++;
      movements += replay.entries.length;
    }
    t.equal(compared, 1_000, `1,000 accounts compared, ${movements} credit movements replayed and chained`);
    t.ok(movements > 5_000, 'a run with thousands of movements');
  },
);

t.test('a changed, removed, reordered or inserted credit event is caught and named by its position', async (t) => {
  const db = await testDatabase(t);
  await createProjectionTables(db.pool, [ledgerProjection]);
  const ids = await appendRandomAccounts(db.pool, { accounts: 40, steps: 30, seed: seed + 1, prefix: 'tamper' });
  // Accounts with enough credit movements to tamper in the middle.
  const victims: string[] = [];
  for (const id of ids) if ((await creditRows(db.pool, id)).length >= 6) victims.push(id);
  t.ok(victims.length >= 4, `${victims.length} accounts with at least 6 credit movements`);
  const [changed, removed, reordered, inserted] = victims;
  for (const id of victims)
    t.same((await checkChain(db.pool, accountStreamId(id))).problems, [], `${id}: intact before`);

  const breaksOf = async (id: string) => (await checkChain(db.pool, accountStreamId(id))).problems;

  // Changed: a charge's amount, or any credit payload, edited in place.
  let rows = await creditRows(db.pool, changed!);
  const target = rows[2]!;
  await db.pool.query(
    `UPDATE events SET payload = jsonb_set(payload, '{reason}', '"edited"') || jsonb_build_object('tampered', true) WHERE seq = $1`,
    [target.seq],
  );
  let breaks = await breaksOf(changed!);
  t.equal(breaks.length, 1, 'one break');
  t.equal(breaks[0]!.streamVersion, rows[3]!.stream_version, 'found at the next credit movement');
  t.match(
    breaks[0]!.message,
    `stream version ${target.stream_version} (position ${target.position})`,
    'names the changed event',
  );
  const report = await verifyLedger(db.pool, changed!, 0);
  t.notOk(report.ok, 'ledger verify fails');
  t.match(report.problems.join('\n'), `position ${target.position}`, 'and names the changed event');

  // Removed: a credit movement deleted.
  rows = await creditRows(db.pool, removed!);
  await db.pool.query('DELETE FROM events WHERE seq = $1', [rows[2]!.seq]);
  breaks = await breaksOf(removed!);
  t.ok(
    breaks.some(
      (b) =>
        b.message.includes(`stream versions ${rows[2]!.stream_version}..${rows[2]!.stream_version}`) ||
        b.message.includes(`versions ${rows[2]!.stream_version}..`),
    ),
    'the missing stream version is named',
  );
  t.ok(
    breaks.some(
      (b) => b.streamVersion === rows[3]!.stream_version && b.message.includes(`position ${rows[1]!.position}`),
    ),
    'the chain breaks after the last intact movement, which is named',
  );

  // Reordered: two credit movements swap places (stream versions).
  rows = await creditRows(db.pool, reordered!);
  const [a, b] = [rows[1]!, rows[3]!];
  await db.pool.query(`UPDATE events SET stream_version = -1 WHERE seq = $1`, [a.seq]);
  await db.pool.query(`UPDATE events SET stream_version = $2 WHERE seq = $1`, [b.seq, a.stream_version]);
  await db.pool.query(`UPDATE events SET stream_version = $2 WHERE seq = $1`, [a.seq, b.stream_version]);
  breaks = await breaksOf(reordered!);
  t.ok(breaks.length >= 1, 'caught');
  t.equal(breaks[0]!.streamVersion, a.stream_version, 'first break where the moved event now sits');
  t.equal(breaks[0]!.position, b.position, 'named by its log position');

  // Inserted: a forged adjustment slipped in, later events renumbered, its link copied from the next one.
  rows = await creditRows(db.pool, inserted!);
  const next = rows[3]!;
  await db.pool.query(
    `UPDATE events SET stream_version = -stream_version - 1 WHERE stream_id = $1 AND stream_version >= $2`,
    [accountStreamId(inserted!), next.stream_version],
  );
  await db.pool.query(
    `UPDATE events SET stream_version = -stream_version WHERE stream_id = $1 AND stream_version < 0`,
    [accountStreamId(inserted!)],
  );
  const forged = await db.pool.query<{ position: string }>(
    `INSERT INTO events (id, stream_id, stream_version, account_id, partition, type, version, occurred_at, payload, prev_hash)
     SELECT 'forged', stream_id, $2, account_id, partition, 'CreditsAdjusted', 2, occurred_at,
            '{"adjustmentId":"adj_forged","delta":1000,"actor":"x","reason":"y"}'::jsonb, prev_hash
       FROM events WHERE seq = $1
     RETURNING tx_id::text || ':' || seq AS position`,
    [next.seq, next.stream_version],
  );
  breaks = await breaksOf(inserted!);
  t.ok(
    breaks.some(
      (x) => x.streamVersion === next.stream_version + 1 && x.message.includes(`position ${forged.rows[0]!.position}`),
    ),
    'the inserted event is named by the break after it',
  );
});

t.test('ledger replay and verify --all on the command line', async (t) => {
  const db = await testDatabase(t);
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: db.url };
  delete env.KAFKA_BROKERS;
  const accountId = 'usr_cli_replay';
  const streamId = accountStreamId(accountId);
  const at = (iso: string) => new Date(iso);
  const run = (command: Parameters<typeof accountDecider.decide>[0], now: Date) =>
    handleCommand(db.pool, { decider: accountDecider, streamId, accountId, command, now });
  await run(
    {
      type: 'OpenAccount',
      data: {
        accountId,
        email: 'cli@example.com',
        sealedEmail: 'enc:v1:c2VhbGVk',
        role: 'user',
        unlimited: false,
        webhookSecretRef: 'vault:whs_abcdefgh',
      },
    },
    at('2026-01-01T00:00:00Z'),
  );
  await run({ type: 'PurchaseCredits', data: { paymentId: 'pay_1', credits: 5 } }, at('2026-01-02T00:00:00Z'));
  await run(
    {
      type: 'ChargeCredit',
      data: { kind: 'audit', subjectId: 'aud_1', jobId: 'job_1', url: 'https://example.com/a,b', project: null },
    },
    at('2026-01-03T00:00:00Z'),
  );
  await run(
    { type: 'RefundCharge', data: { kind: 'audit', subjectId: 'aud_1', reason: 'failed' } },
    at('2026-01-04T00:00:00Z'),
  );
  await run(
    { type: 'AdjustCredits', data: { adjustmentId: 'adj_1', delta: -2, actor: 'ops', reason: 'fix' } },
    at('2026-01-05T00:00:00Z'),
  );

  const json = await admin(env, 'ledger', 'replay', '--account', accountId);
  t.equal(json.code, 0, JSON.stringify(json.stderr));
  t.same(
    json.json.entries.map((e: { type: string; delta: number; balance: number }) => [e.type, e.delta, e.balance]),
    [
      ['CreditsPurchased', 5, 5],
      ['CreditCharged', -1, 4],
      ['CreditRefunded', 1, 5],
      ['CreditsAdjusted', -2, 3],
    ],
  );
  t.equal(json.json.balance, 3);
  t.match(json.json.entries[0].position, /^\d+:\d+$/, 'each entry has its log position');

  const then = await admin(
    env,
    'ledger',
    'replay',
    '--account',
    accountId,
    '--at',
    '2026-01-03T12:00:00Z',
    '--format',
    'csv',
  );
  t.equal(then.code, 0);
  const lines = then.stdout.trim().split('\n');
  t.equal(lines[0], 'position,streamVersion,occurredAt,type,eventId,ref,delta,balance');
  t.equal(lines.length, 3, 'two entries up to that time');
  t.match(lines[2], /,CreditCharged,.*,-1,4$/, 'the balance at that time is 4');

  const bad = await admin(env, 'ledger', 'replay', '--account', accountId, '--at', 'yesterday');
  t.equal(bad.code, 1);
  t.equal(bad.stderr.error.code, 'invalid_request');

  await appendRandomAccounts(db.pool, { accounts: 30, steps: 10, seed: seed + 2, prefix: 'all' });
  const subscriber = makeSubscriber('store', db.pool);
  t.teardown(() => subscriber.close());
  await startProjections(db.pool, subscriber, [ledgerProjection]);
  await ledgerCaughtUp(db.pool);
  const all = await admin(env, 'ledger', 'verify', '--all', '--progress');
  t.equal(all.code, 0, JSON.stringify(all.json?.failures?.[0]?.problems ?? all.stderr));
  t.match(all.json, { accounts: 31, ok: 31, failed: 0 });
  t.match(String(all.stderr), /31\/31 accounts/, 'a progress bar on stderr when asked');

  const victim = (await creditRows(db.pool, accountId))[1]!;
  await db.pool.query(`UPDATE events SET payload = payload || '{"credits": 0}'::jsonb WHERE seq = $1`, [victim.seq]);
  const caught = await admin(env, 'ledger', 'verify', '--all');
  t.equal(caught.code, 1, 'a broken chain fails verify --all');
  t.match(caught.json, { accounts: 31, failed: 1 });
  t.match(caught.json.failures[0].problems.join('\n'), `position ${victim.position}`);
});
