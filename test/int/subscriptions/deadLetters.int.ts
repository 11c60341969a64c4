import t from 'tap';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';

registerTestEvents();

t.test('an event the handler keeps failing on is dead-lettered with its error; the group goes on', async (t) => {
  const { pool } = await testDatabase(t);
  await pool.query('CREATE TABLE applied (n integer)');
  for (let n = 1; n <= 5; n++) {
    await withTransaction(pool, (tx) =>
      appendToStream(tx, {
        streamId: 'test-a',
        accountId: 'acc_a',
        expectedVersion: n - 1,
        now: new Date(),
        events: [TestHappened({ n, note: n === 3 ? 'poison' : null })],
      }),
    );
  }
  const subscriber = makeSubscriber('store', pool);
  t.teardown(() => subscriber.close());
  await subscriber.subscribe({
    groupId: 'dl',
    async handle(events, tx) {
      for (const e of events) {
        const p = e.payload as { n: number; note: string | null };
        if (p.note === 'poison') throw new Error('cannot handle event 3');
        await tx.query('INSERT INTO applied VALUES ($1)', [p.n]);
      }
    },
  });
  await eventually(
    async () => (await pool.query('SELECT count(*)::int AS c FROM applied')).rows[0].c === 4,
    30_000,
    'the healthy events',
  );
  t.same(
    (await pool.query('SELECT n FROM applied ORDER BY n')).rows.map((r) => r.n),
    [1, 2, 4, 5],
    'all but the poison event, each once',
  );
  const dl = (await pool.query('SELECT group_id, event_type, error FROM dead_letters')).rows;
  t.equal(dl.length, 1);
  t.equal(dl[0].event_type, 'TestHappened');
  t.match(dl[0].error, /cannot handle event 3/);
});
