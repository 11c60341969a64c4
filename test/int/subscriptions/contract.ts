import type { Test } from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import type { KafkaSettings } from '../../../infra/kafka/client.ts';
import { withTransaction, type Pool } from '../../../infra/postgres/pool.ts';
import type { Subscriber, Subscription } from '../../../infra/subscriptions/port.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import type { AdapterKind } from '../../helpers/subscribers.ts';

registerTestEvents();

export interface ContractContext {
  pool: Pool;
  url: string;
  subscriber: Subscriber;
  /** How many partitions the adapter spreads accounts over. */
  partitions: number;
  kafkaSettings?: KafkaSettings;
}

/** Builds the adapter under test on a fresh database (and, for Kafka, a topic and a relay). */
export type ContractSetup = (t: Test, db: { pool: Pool; url: string }) => Promise<ContractContext>;

const APPLIED = `CREATE TABLE applied (seq bigserial PRIMARY KEY, group_id text, member text, event_id text, account_id text, n integer)`;

/** Appends `perAccount` events to each account's stream, accounts written concurrently. */
async function appendMany(pool: Pool, accounts: string[], perAccount: number, from = 1): Promise<void> {
  await Promise.all(
    accounts.map(async (accountId) => {
      for (let n = from; n < from + perAccount; n++) {
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

const recorder = (pool: Pool, groupId: string, member: string) => ({
  groupId,
  types: ['TestHappened'],
  async handle(events: { id: string; accountId: string; payload: unknown }[], tx: import('pg').PoolClient) {
    for (const e of events) {
      await tx.query('INSERT INTO applied (group_id, member, event_id, account_id, n) VALUES ($1, $2, $3, $4, $5)', [
        groupId,
        member,
        e.id,
        e.accountId,
        (e.payload as { n: number }).n,
      ]);
    }
  },
});

async function appliedCount(pool: Pool, groupId: string): Promise<number> {
  return Number((await pool.query('SELECT count(*) FROM applied WHERE group_id = $1', [groupId])).rows[0].count);
}

/** Each event applied exactly once, and each account's events in stream order. */
async function assertExactlyOnceInOrder(
  t: Test,
  pool: Pool,
  groupId: string,
  accounts: string[],
  perAccount: number,
): Promise<void> {
  const dup = await pool.query(
    'SELECT event_id FROM applied WHERE group_id = $1 GROUP BY event_id HAVING count(*) > 1',
    [groupId],
  );
  t.equal(dup.rowCount, 0, 'no event applied twice');
  for (const a of accounts) {
    const r = await pool.query<{ n: number }>(
      'SELECT n FROM applied WHERE group_id = $1 AND account_id = $2 ORDER BY seq',
      [groupId, a],
    );
    t.same(
      r.rows.map((x) => x.n),
      Array.from({ length: perAccount }, (_, i) => i + 1),
      `account ${a}: every event, in order`,
    );
  }
}

export function subscriptionContract(t: Test, kind: AdapterKind, setup: ContractSetup): void {
  // Enough accounts that every partition of either adapter is likely to have some.
  const accounts = Array.from({ length: 24 }, (_, i) => `acc_${i.toString(36)}`);

  t.test(`${kind}: per-account order, each event once, replay from the beginning`, async (t) => {
    const db = await testDatabase(t);
    await db.pool.query(APPLIED);
    const ctx = await setup(t, db);
    await appendMany(db.pool, accounts, 15);
    const sub = await ctx.subscriber.subscribe(recorder(db.pool, 'g1', 'm1'));
    await eventually(
      async () => (await appliedCount(db.pool, 'g1')) === accounts.length * 15,
      60_000,
      'g1 to apply everything',
    );
    await assertExactlyOnceInOrder(t, db.pool, 'g1', accounts, 15);

    // More events while it runs; then a brand-new group replays the whole log from the beginning.
    await appendMany(db.pool, accounts, 5, 16);
    await eventually(
      async () => (await appliedCount(db.pool, 'g1')) === accounts.length * 20,
      60_000,
      'g1 to apply the rest',
    );
    const replay = await ctx.subscriber.subscribe(recorder(db.pool, 'g2', 'm1'));
    await eventually(async () => (await appliedCount(db.pool, 'g2')) === accounts.length * 20, 60_000, 'g2 to replay');
    await assertExactlyOnceInOrder(t, db.pool, 'g2', accounts, 20);
    await sub.stop();
    await replay.stop();
  });

  t.test(
    `${kind}: a consumer killed before its transaction commits gets the events again; writes happen once`,
    async (t) => {
      const db = await testDatabase(t);
      await db.pool.query(APPLIED);
      const ctx = await setup(t, db);
      await appendMany(db.pool, accounts, 10);
      const args = [kind, db.url, 'gk', 'hang', ...(ctx.kafkaSettings ? [JSON.stringify(ctx.kafkaSettings)] : [])];
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/subscriberChild.ts', ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      // Killed in any case: a child left hanging in its transaction would hold every reader back.
      t.teardown(() => {
        child.kill('SIGKILL');
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await eventually(async () => out.includes('IN_HANDLER'), 60_000, 'the child to be inside its transaction');
      child.kill('SIGKILL');
      await once(child, 'exit');
      t.equal(await appliedCount(db.pool, 'gk'), 0, 'nothing of the killed transaction is visible');

      const sub = await ctx.subscriber.subscribe(recorder(db.pool, 'gk', 'survivor'));
      await eventually(
        async () => (await appliedCount(db.pool, 'gk')) === accounts.length * 10,
        60_000,
        'the survivor to apply everything',
      );
      await assertExactlyOnceInOrder(t, db.pool, 'gk', accounts, 10);
      await sub.stop();
    },
  );

  t.test(`${kind}: two consumers of one group share the partitions and take over from each other`, async (t) => {
    const db = await testDatabase(t);
    await db.pool.query(APPLIED);
    const ctx = await setup(t, db);
    const a: Subscription = await ctx.subscriber.subscribe(recorder(db.pool, 'gs', 'A'));
    const b: Subscription = await ctx.subscriber.subscribe(recorder(db.pool, 'gs', 'B'));
    await eventually(
      async () =>
        a.assigned().length > 0 &&
        b.assigned().length > 0 &&
        a.assigned().length + b.assigned().length === ctx.partitions &&
        new Set([...a.assigned(), ...b.assigned()]).size === ctx.partitions,
      60_000,
      'both members to hold partitions, all of them between them',
    );
    t.same(
      a.assigned().filter((p) => b.assigned().includes(p)),
      [],
      'no partition held by both',
    );
    t.equal(a.assigned().length + b.assigned().length, ctx.partitions, 'every partition held');

    await appendMany(db.pool, accounts, 10);
    await eventually(
      async () => (await appliedCount(db.pool, 'gs')) === accounts.length * 10,
      60_000,
      'the group to apply everything',
    );
    const members = (
      await db.pool.query<{ member: string }>(
        'SELECT DISTINCT member FROM applied WHERE group_id = $1 ORDER BY member',
        ['gs'],
      )
    ).rows.map((r) => r.member);
    t.same(members, ['A', 'B'], 'both members did part of the work');

    await a.stop();
    await appendMany(db.pool, accounts, 10, 11);
    await eventually(
      async () => (await appliedCount(db.pool, 'gs')) === accounts.length * 20,
      60_000,
      'B to take over',
    );
    t.equal(b.assigned().length, ctx.partitions, 'the remaining member holds every partition');
    await assertExactlyOnceInOrder(t, db.pool, 'gs', accounts, 20);
    const lateByA = await db.pool.query(
      `SELECT count(*) FROM applied WHERE group_id = 'gs' AND member = 'A' AND n > 10`,
    );
    t.equal(Number(lateByA.rows[0].count), 0, 'the stopped member applied nothing after it left');
    await sleep(10);
    await b.stop();
  });
}
