import type { Logger } from '../logger.ts';
import type { Pool } from '../postgres/pool.ts';
import { claimTask, extendLease, lastErrorOf, LeaseLostError, nextDueAt, releaseTask, type Task } from './taskQueue.ts';
import { sleep } from '../../core/sleep.ts';
import { taskDue } from '../wakeups/schema.ts';
import { openWakeup } from '../wakeups/wakeups.ts';
import { offerLoops } from './handOver.ts';

export interface WorkerOptions {
  pool: Pool;
  kind: string;
  log: Logger;
  /** Tasks worked on at once by this process. */
  concurrency: number;
  leaseSeconds: number;
  /** Claims after which a task that keeps dying is given up (`exhausted`). */
  maxAttempts: number;
  /** Does the task and marks it done in the transaction that records its outcome. */
  run(task: Task): Promise<void>;
  /** Records the outcome of a task given up after maxAttempts. */
  exhausted(task: Task, lastError: string): Promise<void>;
  /**
   * The safety net: an idle worker looks for work at least this often. It is woken as soon as a
   * task of its kind is committed (infra/wakeups) and sleeps no longer than the next due time.
   */
  idleMs?: number;
}

/** A task due but being claimed by another worker right now: looked at again after this pause. */
const MIN_IDLE_MS = 20;

export interface Worker {
  stop(): Promise<void>;
}

/**
 * The tasks handed to a worker by steps of this process that made them due (handOver.ts), and
 * its idle loops held for them meanwhile.
 */
function handedTasks(o: WorkerOptions, idleLoops: () => number, wake: () => void) {
  const tasks: Task[] = [];
  let held = 0;
  const withdraw = offerLoops(o.pool, o.kind, () => {
    if (idleLoops() - held <= 0) return null;
    held++;
    return {
      leaseSeconds: o.leaseSeconds,
      give(task) {
        held--;
        if (!task) return;
        tasks.push(task);
        wake();
      },
    };
  });
  return { next: () => tasks.shift(), withdraw };
}

/** Runs a claimed task with its lease kept alive; an error gives it back with a pause. */
async function runClaimed(o: WorkerOptions, task: Task): Promise<void> {
  try {
    if (task.attempt > o.maxAttempts) {
      await o.exhausted(task, (await lastErrorOf(o.pool, task.taskId)) ?? 'the worker stopped during this task');
      return;
    }
    const heartbeat = setInterval(
      () => void extendLease(o.pool, task, o.leaseSeconds).catch(() => undefined),
      (o.leaseSeconds * 1000) / 3,
    );
    try {
      await o.run(task);
    } finally {
      clearInterval(heartbeat);
    }
  } catch (e) {
    // A holder woken after its lease ran out: the later claim owns the task, nothing to give back.
    if (e instanceof LeaseLostError) {
      o.log.warn({ taskId: task.taskId, attempt: task.attempt }, 'task taken over by a later claim; outcome dropped');
      return;
    }
    o.log.error({ err: e, taskId: task.taskId }, 'task failed; it will be retried');
    await releaseTask(o.pool, task, String((e as Error)?.stack ?? e), Math.min(60, 2 ** task.attempt)).catch(
      () => undefined,
    );
    await sleep(200);
  }
}

/**
 * A pool of loops claiming leased tasks. A worker that dies leaves its lease to run out and the
 * task is claimed again (its steps are idempotent); an error gives the task back with a pause.
 * A worker paused past its lease is fenced: its claim's attempt is stale, so completeTask refuses
 * its outcome (LeaseLostError) and the transaction holding that outcome rolls back.
 *
 * One idle loop at a time watches (the wake-up and the safety net); the other idle loops are parked.
 * A commit of one task woke every loop, and all but one claimed in vain, then each asked for the
 * next due time: about ten statements per task. Now the watcher claims, and a loop that got a task
 * unparks one more loop, so a burst of tasks still spreads over the loops, one claim at a time.
 * The watcher keeps its role through the claim after its wake-up, until a claim finds it a task,
 * and a loop back from a task parks while another holds the role: that one is woken by every
 * commit of a task and sleeps no longer than the next due time, so a look of its own would find
 * nothing (issue 26: a claim in vain after every task).
 *
 * An idle loop can also be held by a step of this process that makes a task of its kind due
 * (handOver.ts): the step claims the task in its own transaction and gives it here on commit.
 * Such a task says nothing of any other: its loop unparks no other to look.
 */
export function startWorker(o: WorkerOptions): Worker {
  let stopping = false;
  const wakeup = openWakeup(o.pool, o.log, taskDue(o.kind));
  /** The loop holding the watcher's role, if any. */
  let watcher: symbol | null = null;
  let busy = 0;
  const parked: (() => void)[] = [];
  const unparkOne = () => parked.shift()?.();
  const handed = handedTasks(
    o,
    () => (stopping ? 0 : o.concurrency - busy),
    () => (parked.length ? unparkOne() : wakeup.wake()),
  );
  const idle = async (me: symbol) => {
    if (stopping) return;
    if (watcher !== null && watcher !== me) return new Promise<void>((resolve) => parked.push(resolve));
    watcher = me;
    try {
      const due = await nextDueAt(o.pool, o.kind);
      const untilDue = due ? due.getTime() - Date.now() : Infinity;
      await wakeup.wait(Math.min(o.idleMs ?? 1000, Math.max(MIN_IDLE_MS, untilDue)));
    } catch (e) {
      watcher = null;
      throw e;
    }
  };
  const loop = async () => {
    const me = Symbol('loop');
    let backFromTask = false;
    while (!stopping) {
      let task: Task | null = null;
      try {
        const handedTask = handed.next();
        const lookAfterTask = backFromTask;
        backFromTask = false;
        if (!handedTask && lookAfterTask && watcher !== null) {
          await idle(me);
          continue;
        }
        task = handedTask ?? (await claimTask(o.pool, o.kind, o.leaseSeconds));
        if (!task) {
          await idle(me);
          continue;
        }
        if (watcher === me) watcher = null;
        busy++;
        // More tasks may be due (a batch committed at once): the next loop looks.
        if (!handedTask) unparkOne();
        await runClaimed(o, task);
      } catch (e) {
        o.log.error({ err: e }, 'task worker: looking for work failed; it looks again');
        await sleep(200);
      } finally {
        if (task) {
          busy--;
          backFromTask = true;
        }
      }
    }
  };
  const loops = Array.from({ length: o.concurrency }, () => loop());
  return {
    async stop() {
      stopping = true;
      handed.withdraw();
      wakeup.close();
      while (parked.length) unparkOne();
      await Promise.all(loops);
    },
  };
}
