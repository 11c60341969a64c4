import t from 'tap';
import { appendToStream } from '../../../infra/eventStore/eventStore.ts';
import { createLogger } from '../../../infra/logger.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { createStoreSubscriber } from '../../../infra/subscriptions/storeSubscriber.ts';
import { enqueueTask, completeTask, scheduleTask } from '../../../infra/taskQueue/taskQueue.ts';
import { startWorker } from '../../../infra/taskQueue/worker.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';

registerTestEvents();

// Push, not poll (issue 26): with a safety net of a minute, work arrives within seconds only if the
// commit that made it due woke its loop. Bounds are loose for a loaded machine, far below the net.
const NET_MS = 60_000;
const WITHIN_MS = 10_000;
const log = createLogger('test-wakeups', 'warn');

t.test('a store subscriber reads an append at its commit, not at its next poll', async (t) => {
  const db = await testDatabase(t);
  const seen: string[] = [];
  const subscriber = createStoreSubscriber(db.pool, { log, pollMs: NET_MS });
  t.teardown(() => subscriber.close());
  await subscriber.subscribe({
    groupId: 'wake-test',
    types: ['TestHappened'],
    handle: async (events) => void seen.push(...events.map((e) => e.id)),
  });
  // The first pass (at start) is done once the subscription has read the empty log.
  await new Promise((r) => setTimeout(r, 1500));
  for (let n = 1; n <= 3; n++) {
    const t0 = Date.now();
    const [e] = await withTransaction(db.pool, (tx) =>
      appendToStream(tx, {
        streamId: `test-acc_w${n}`,
        accountId: `acc_w${n}`,
        expectedVersion: 0,
        now: new Date(),
        events: [TestHappened({ n, note: null })],
      }),
    );
    await eventually(async () => seen.includes(e!.id), WITHIN_MS, `event ${n}`);
    t.ok(Date.now() - t0 < WITHIN_MS, `event ${n} read ${Date.now() - t0} ms after its commit`);
  }
});

t.test('a worker claims a task at its commit, and a timer at its due time', async (t) => {
  const db = await testDatabase(t);
  const done = new Map<string, number>();
  const worker = startWorker({
    pool: db.pool,
    kind: 'wake-test',
    log,
    concurrency: 2,
    leaseSeconds: 30,
    maxAttempts: 3,
    idleMs: NET_MS,
    run: async (task) => {
      done.set(task.subjectId, Date.now());
      await completeTask(db.pool, task);
    },
    exhausted: async () => undefined,
  });
  t.teardown(() => worker.stop());
  await new Promise((r) => setTimeout(r, 1000));
  const t0 = Date.now();
  await enqueueTask(db.pool, 'wake-test', 'acc_1', 'now');
  await eventually(async () => done.has('now'), WITHIN_MS, 'the task');
  t.ok(done.get('now')! - t0 < WITHIN_MS, `claimed ${done.get('now')! - t0} ms after its commit`);

  const dueAt = Date.now() + 2000;
  await scheduleTask(db.pool, 'wake-test', 'acc_1', 'timer', new Date(dueAt));
  await eventually(async () => done.has('timer'), WITHIN_MS + 2000, 'the timer');
  t.ok(done.get('timer')! >= dueAt - 50, 'not before its due time');
  t.ok(done.get('timer')! - dueAt < WITHIN_MS, `fired ${done.get('timer')! - dueAt} ms after its due time`);
});
