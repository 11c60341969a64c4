import t from 'tap';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import {
  appendToStream,
  appendToStreams,
  DuplicateEventError,
  readStream,
  readStreams,
} from '../../../infra/eventStore/eventStore.ts';
import { readLog } from '../../../infra/eventStore/readLog.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { AppError } from '../../../core/errors.ts';
import { START } from '../../../events/envelope.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';

registerTestEvents();

const now = new Date('2026-11-01T00:00:00Z');

t.test('appends with optimistic concurrency and reads the stream back in order', async (t) => {
  const { pool } = await testDatabase(t);
  const appended = await withTransaction(pool, (tx) =>
    appendToStream(tx, {
      streamId: 's-1',
      accountId: 'acc_1',
      expectedVersion: 0,
      now,
      events: [TestHappened({ n: 1, note: null }), TestHappened({ n: 2, note: 'x' })],
    }),
  );
  t.equal(appended.length, 2);
  t.same(
    appended.map((e) => e.streamVersion),
    [1, 2],
  );
  const read = await readStream(pool, 's-1');
  t.same(
    read.map((e) => (e.payload as { n: number }).n),
    [1, 2],
  );
  t.equal(read[0]!.occurredAt, now.toISOString());
});

t.test('concurrent appends with the same expected version: exactly one wins', async (t) => {
  const { pool } = await testDatabase(t, 30);
  const attempts = 20;
  const results = await Promise.allSettled(
    Array.from({ length: attempts }, (_, i) =>
      withTransaction(pool, (tx) =>
        appendToStream(tx, {
          streamId: 'race',
          accountId: 'acc_1',
          expectedVersion: 0,
          now,
          events: [TestHappened({ n: i, note: null })],
        }),
      ),
    ),
  );
  const won = results.filter((r) => r.status === 'fulfilled');
  const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  t.equal(won.length, 1, 'one writer wins');
  t.equal(lost.length, attempts - 1);
  t.ok(
    lost.every((r) => r.reason instanceof AppError && r.reason.code === 'concurrency_conflict'),
    'the others get concurrency_conflict',
  );
  t.equal((await readStream(pool, 'race')).length, 1);
});

t.test('a retried step with deterministic ids is refused as a duplicate, not stored twice', async (t) => {
  const { pool } = await testDatabase(t);
  const step = () =>
    withTransaction(pool, (tx) =>
      appendToStream(tx, {
        streamId: 'dup',
        accountId: 'acc_1',
        expectedVersion: 0,
        now,
        events: [{ ...TestHappened({ n: 1, note: null }), id: '7d0c2a3e-0000-5000-8000-000000000001' }],
      }),
    );
  await step();
  // A second copy of the same step on a stream that moved on: its id is already stored.
  await t.rejects(
    withTransaction(pool, (tx) =>
      appendToStream(tx, {
        streamId: 'dup',
        accountId: 'acc_1',
        expectedVersion: 1,
        now,
        events: [{ ...TestHappened({ n: 1, note: null }), id: '7d0c2a3e-0000-5000-8000-000000000001' }],
      }),
    ),
    DuplicateEventError,
  );
  t.equal((await readStream(pool, 'dup')).length, 1);
});

t.test('a payload that does not match its schema is refused before it is stored', async (t) => {
  const { pool } = await testDatabase(t);
  await t.rejects(
    withTransaction(pool, (tx) =>
      appendToStream(tx, {
        streamId: 'bad',
        accountId: 'a',
        expectedVersion: 0,
        now,
        events: [{ type: 'TestHappened', data: { n: 'one' } }],
      }),
    ),
    /does not match its schema/,
  );
  t.equal((await readStream(pool, 'bad')).length, 0);
});

t.test('an old event version is upcast on read', async (t) => {
  const { pool } = await testDatabase(t);
  // Written by an earlier release: version 1 had no `note`.
  await pool.query(
    `INSERT INTO events (id, stream_id, stream_version, account_id, partition, type, version, occurred_at, payload)
     VALUES ('old-1', 'old', 1, 'acc_1', 0, 'TestHappened', 1, now(), '{"n": 5}')`,
  );
  const [e] = await readStream(pool, 'old');
  t.same(e!.payload, { n: 5, note: null });
  t.equal(e!.version, 2);
  // Another test's open transaction anywhere in the cluster holds the log back for a moment: wait.
  let fromLog: Awaited<ReturnType<typeof readLog>> = [];
  await eventually(
    async () => (fromLog = await readLog(pool, { after: START, limit: 10 })).length === 1,
    10_000,
    'the log to show the event',
  );
  t.same(fromLog[0]!.payload, { n: 5, note: null });
});

t.test('the log never skips a transaction that commits after a later one', async (t) => {
  const { pool } = await testDatabase(t);
  const slow = await pool.connect();
  const fast = await pool.connect();
  t.teardown(() => {
    slow.release();
    fast.release();
  });
  await slow.query('BEGIN');
  await appendToStream(slow, {
    streamId: 'slow',
    accountId: 'a',
    expectedVersion: 0,
    now,
    events: [TestHappened({ n: 1, note: 'slow' })],
  });
  await fast.query('BEGIN');
  await appendToStream(fast, {
    streamId: 'fast',
    accountId: 'b',
    expectedVersion: 0,
    now,
    events: [TestHappened({ n: 2, note: 'fast' })],
  });
  await fast.query('COMMIT');

  // The later transaction has committed, the earlier is still open: a reader must wait.
  const early = await readLog(pool, { after: START, limit: 10 });
  t.same(
    early.map((e) => e.streamId),
    [],
    'nothing is read past a transaction still running',
  );

  await slow.query('COMMIT');
  let all: Awaited<ReturnType<typeof readLog>> = [];
  await eventually(
    async () => (all = await readLog(pool, { after: START, limit: 10 })).length === 2,
    10_000,
    'both events',
  );
  t.same(
    all.map((e) => e.streamId),
    ['slow', 'fast'],
    'both, in transaction order',
  );
  const rest = await readLog(pool, { after: all[0]!.position, limit: 10 });
  t.same(
    rest.map((e) => e.streamId),
    ['fast'],
    'reading on from the first gives the second',
  );
});

t.test(
  'commit order compares transaction ids as numbers, also across a change in their number of digits',
  async (t) => {
    const { pool } = await testDatabase(t);
    // Rows as transactions 943 and 1005 would have written them (both long finished): as text,
    // '1005' sorts before '943', and a reader paging in text order would skip 943. On a fresh
    // cluster 1005 may not be finished yet (the log would rightly hide it): use up ids past it.
    const current = async () =>
      Number((await pool.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x);
    while ((await current()) < 1100);
    await pool.query(
      `INSERT INTO events (tx_id, id, stream_id, stream_version, account_id, partition, type, version, occurred_at, payload) VALUES
       ('1005', 'e-1005', 'b', 1, 'acc_d', 0, 'TestHappened', 2, now(), '{"n": 2, "note": null}'),
       ('943',  'e-943',  'a', 1, 'acc_d', 0, 'TestHappened', 2, now(), '{"n": 1, "note": null}')`,
    );
    // The log's horizon is cluster-wide: another test file's open transaction can hide both a while.
    await eventually(async () => (await readLog(pool, { after: START, limit: 10 })).length === 2);
    const first = await readLog(pool, { after: START, limit: 1 });
    t.equal(first[0]?.id, 'e-943', 'the smaller transaction id comes first');
    const second = await readLog(pool, { after: first[0]!.position, limit: 1 });
    t.equal(second[0]?.id, 'e-1005', 'and paging on from it reaches the larger one');
    const byPartition = await readLog(pool, { after: START, partition: 0, limit: 10 });
    t.same(
      byPartition.map((e) => e.id),
      ['e-943', 'e-1005'],
      'the same within a partition',
    );
  },
);

t.test('two appends to one stream in one transaction keep their order', async (t) => {
  const { pool } = await testDatabase(t);
  await withTransaction(pool, async (tx) => {
    await appendToStream(tx, {
      streamId: 'twice',
      accountId: 'a',
      expectedVersion: 0,
      now,
      events: [TestHappened({ n: 1, note: null })],
    });
    await appendToStream(tx, {
      streamId: 'twice',
      accountId: 'a',
      expectedVersion: 1,
      now,
      events: [TestHappened({ n: 2, note: null })],
    });
  });
  t.same(
    (await readStream(pool, 'twice')).map((e) => e.streamVersion),
    [1, 2],
  );
});

t.test(
  "an append that would sort before the stream's last event is refused, and the retry keeps the order",
  async (t) => {
    const { pool } = await testDatabase(t);
    await pool.query('CREATE TABLE side (i int)');
    const early = await pool.connect();
    t.teardown(() => early.release());
    await early.query('BEGIN');
    await early.query('INSERT INTO side VALUES (1)'); // gets its transaction id now
    await withTransaction(pool, (tx) =>
      appendToStream(tx, {
        streamId: 'ord',
        accountId: 'a',
        expectedVersion: 0,
        now,
        events: [TestHappened({ n: 1, note: 'later id, committed first' })],
      }),
    );
    const refused = await appendToStream(early, {
      streamId: 'ord',
      accountId: 'a',
      expectedVersion: 1,
      now,
      events: [TestHappened({ n: 2, note: 'older id' })],
    }).then(
      () => null,
      (e: unknown) => e,
    );
    t.ok(refused instanceof AppError && refused.code === 'concurrency_conflict', 'refused as a concurrency conflict');
    await early.query('ROLLBACK');
    await withTransaction(pool, (tx) =>
      appendToStream(tx, {
        streamId: 'ord',
        accountId: 'a',
        expectedVersion: 1,
        now,
        events: [TestHappened({ n: 2, note: 'retried' })],
      }),
    );
    let all: Awaited<ReturnType<typeof readLog>> = [];
    await eventually(
      async () => (all = await readLog(pool, { after: START, limit: 10 })).length === 2,
      10_000,
      'both events',
    );
    t.same(
      all.map((e) => e.streamVersion),
      [1, 2],
      'the log shows the stream in order',
    );
  },
);

t.test(
  'one append across streams: versions per stream, a stream twice in order, any conflict refuses all',
  async (t) => {
    const { pool } = await testDatabase(t);
    const happened = (n: number) => TestHappened({ n, note: null });
    const append = (reqs: { streamId: string; expectedVersion: number; n: number[] }[]) =>
      withTransaction(pool, (tx) =>
        appendToStreams(
          tx,
          reqs.map((r) => ({ ...r, accountId: 'acc_1', now, events: r.n.map(happened) })),
        ),
      );
    const out = await append([
      { streamId: 'm-a', expectedVersion: 0, n: [1, 2] },
      { streamId: 'm-b', expectedVersion: 0, n: [3] },
      { streamId: 'm-a', expectedVersion: 2, n: [4] },
    ]);
    t.same(
      out.map((events) => events.map((e) => [e.streamId, e.streamVersion])),
      [
        [
          ['m-a', 1],
          ['m-a', 2],
        ],
        [['m-b', 1]],
        [['m-a', 3]],
      ],
      "each request's events, in its order",
    );
    const streams = await readStreams(pool, ['m-a', 'm-b', 'm-none']);
    t.same(
      [...streams].map(([id, events]) => [id, events.map((e) => (e.payload as { n: number }).n)]),
      [
        ['m-a', [1, 2, 4]],
        ['m-b', [3]],
        ['m-none', []],
      ],
    );
    const conflict = append([
      { streamId: 'm-c', expectedVersion: 0, n: [5] },
      { streamId: 'm-b', expectedVersion: 0, n: [6] },
    ]);
    await t.rejects(conflict, { code: 'concurrency_conflict' }, 'm-b is past version 0: the whole append is refused');
  },
);

t.test('one append across many streams keeps its order in the log, whatever plan the check gets', async (t) => {
  const { pool } = await testDatabase(t);
  const seqOrder = async (where: string) =>
    (
      await pool.query<{ n: number }>(`SELECT (payload->>'n')::int AS n FROM events WHERE ${where} ORDER BY seq`)
    ).rows.map((r) => r.n);
  // On a small table without statistics PostgreSQL picked a hash anti join for the ordering
  // check, which gave the rows back in hash order: an account's third event got seq 1.
  const streams = Array.from({ length: 40 }, (_, i) => `o-${i}`);
  await withTransaction(pool, (tx) =>
    appendToStreams(
      tx,
      streams.slice(0, 20).map((streamId, i) => ({
        streamId,
        accountId: 'acc_o',
        expectedVersion: 0,
        now,
        events: [
          TestHappened({ n: -3 * i - 3, note: null }),
          TestHappened({ n: -3 * i - 2, note: null }),
          TestHappened({ n: -3 * i - 1, note: null }),
        ],
      })),
    ),
  );
  t.same(
    await seqOrder(`(payload->>'n')::int < 0`),
    streams.slice(0, 20).flatMap((_, i) => [-3 * i - 3, -3 * i - 2, -3 * i - 1]),
    'the first append, into an empty table: in the order given',
  );
  let n = 0;
  const appended = await withTransaction(pool, (tx) =>
    appendToStreams(
      tx,
      streams.map((streamId, i) => ({
        streamId,
        accountId: 'acc_o',
        expectedVersion: i < 20 ? 3 : 0,
        now,
        events: Array.from({ length: 5 }, () => TestHappened({ n: ++n, note: null })),
      })),
    ),
  );
  const order = appended.flat().map((e) => (e.payload as { n: number }).n);
  t.same(
    order,
    Array.from({ length: n }, (_, i) => i + 1),
    'returned in the order given',
  );
  t.same(
    await seqOrder(`(payload->>'n')::int > 0`),
    order,
    'stored in the order given: each stream in version order, the streams as listed',
  );
});
