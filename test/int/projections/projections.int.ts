import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { withTransaction, type Pool } from '../../../infra/postgres/pool.ts';
import { dumpProjection, rebuildProjection, startProjections } from '../../../projections/runner.ts';
import { countingProjection } from '../../helpers/countingProjection.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { makeSubscriber, type AdapterKind } from '../../helpers/subscribers.ts';
import { testLog } from '../../helpers/testLog.ts';

registerTestEvents();

const accounts = Array.from({ length: 12 }, (_, i) => `acc_${i}`);
const perAccount = 40;

async function appendAll(pool: Pool): Promise<void> {
  await Promise.all(
    accounts.map(async (accountId) => {
      for (let n = 1; n <= perAccount; n++) {
        await withTransaction(pool, (tx) =>
          appendToStream(tx, {
            streamId: `test-${accountId}`,
            accountId,
            expectedVersion: n - 1,
            now: new Date(),
            events: [TestHappened({ n, note: null })],
          }),
        );
      }
    }),
  );
}

const caughtUp = async (pool: Pool) => {
  const r = await pool
    .query('SELECT count(*)::int AS c, coalesce(sum(events), 0)::int AS e FROM test_counts')
    .catch(() => null);
  return r !== null && r.rows[0].c === accounts.length && r.rows[0].e === accounts.length * perAccount;
};

async function assertExact(t: Test, pool: Pool) {
  const rows = (
    await pool.query('SELECT account_id, events, total::int AS total, last_n FROM test_counts ORDER BY account_id')
  ).rows;
  const expectedTotal = (perAccount * (perAccount + 1)) / 2;
  t.ok(
    rows.every((r) => r.events === perAccount && r.total === expectedTotal && r.last_n === perAccount),
    'every account counted exactly once, in order',
  );
}

for (const kind of ['store', 'kafka'] as AdapterKind[]) {
  t.test(`${kind}: a projection process killed mid-batch never double-applies on restart`, async (t) => {
    const db = await testDatabase(t);
    const { kafkaSettings: settings } = await testLog(t, kind, db.pool);
    const extra = settings ? [JSON.stringify(settings)] : [];
    await appendAll(db.pool);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/helpers/projectionChild.ts', kind, db.url, 'hang', ...extra],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // Killed in any case: a child left hanging in its transaction would hold every reader back.
    t.teardown(() => {
      child.kill('SIGKILL');
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await eventually(async () => out.includes('MID_BATCH'), 60_000, 'the child to be half-way through a batch');
    child.kill('SIGKILL');
    await once(child, 'exit');

    const subscriber = makeSubscriber(kind, db.pool, settings);
    t.teardown(() => subscriber.close());
    await startProjections(db.pool, subscriber, [countingProjection()]);
    await eventually(() => caughtUp(db.pool), 60_000, 'the restarted projection to catch up');
    await assertExact(t, db.pool);
  });

  t.test(`${kind}: a rebuild from offset zero into fresh tables equals the live tables`, async (t) => {
    const db = await testDatabase(t);
    const { kafkaSettings: settings } = await testLog(t, kind, db.pool);
    const subscriber = makeSubscriber(kind, db.pool, settings);
    t.teardown(() => subscriber.close());
    const projection = countingProjection();
    await startProjections(db.pool, subscriber, [projection]);
    await appendAll(db.pool);
    await eventually(() => caughtUp(db.pool), 60_000, 'the live projection to catch up');
    await rebuildProjection(db.pool, projection, 'rebuild_test_counts');
    const live = await dumpProjection(db.pool, projection, 'public');
    const rebuilt = await dumpProjection(db.pool, projection, 'rebuild_test_counts');
    t.equal(rebuilt.test_counts!.length, accounts.length);
    t.same(rebuilt, live, 'row for row the same');
  });
}
