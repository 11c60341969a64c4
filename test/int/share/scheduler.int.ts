import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { shareStreamId } from '../../../events/share/events.ts';
import { readStream, transact } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { tokenHashesOf } from '../../../services/share/links.ts';
import { runShareCommand } from '../../../services/share/shareCommand.ts';
import type { ShareCommand } from '../../../services/domain/share/decider.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';

const SECOND = 1000;

/** A scheduler process: `npm start` with ROLES=scheduler, as a deployment runs it. */
function startScheduler(t: Test, url: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      ROLES: 'scheduler',
      SCHEDULER_POLL_MS: '50',
      SCHEDULER_LEASE_SECONDS: '3',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  return {
    child,
    ready: eventually(async () => /audit service running/.test(out), 60_000, 'a scheduler process to start'),
  };
}

const command = (pool: Pool, accountId: string, auditId: string, c: ShareCommand) =>
  transact(pool, (tx) => runShareCommand(tx, { accountId, auditId, command: c, now: new Date() }));

t.test('two scheduler processes, one restarted midway, emit each expiry once and on time', async (t) => {
  const { pool, url } = await testDatabase(t);
  const a = startScheduler(t, url);
  const b = startScheduler(t, url);
  await Promise.all([a.ready, b.ready]);

  // Links expiring from 1.5 s to 7 s from now (a "day" of one second), one per audit.
  const accountId = 'usr_scheduler';
  const start = Date.now();
  const audits = Array.from({ length: 14 }, (_, i) => ({ auditId: `aud_sched_${i}`, dueMs: 1_500 + i * 400 }));
  for (const x of audits) {
    await command(pool, accountId, x.auditId, {
      type: 'IssueOnCompletion',
      data: {
        auditId: x.auditId,
        now: new Date(start + x.dueMs - SECOND),
        dayMs: SECOND,
        tokenHashFor: tokenHashesOf(x.auditId),
        lang: 'en',
        expiresInDays: 1,
      },
    });
  }
  // One link revoked before its date, one whose date is moved later: neither may expire at the old date.
  const revoked = audits[6]!.auditId;
  const moved = audits[7]!.auditId;
  await command(pool, accountId, revoked, {
    type: 'RevokeShare',
    data: { auditId: revoked, auditStatus: 'completed' },
  });
  await command(pool, accountId, moved, {
    type: 'ShareReport',
    data: {
      auditId: moved,
      now: new Date(),
      dayMs: 9 * SECOND,
      tokenHashFor: tokenHashesOf(moved),
      lang: 'en',
      auditStatus: 'completed',
      expiry: { kind: 'days', days: 1 },
    },
  });

  // Restart one process in the middle of the run: SIGKILL (no graceful hand-over), then a new one.
  await eventually(async () => Date.now() - start > 3_600, 10_000, 'the middle of the run');
  a.child.kill('SIGKILL');
  await once(a.child, 'exit');
  const a2 = startScheduler(t, url);
  await a2.ready;

  const expiredOf = async (auditId: string) =>
    (await readStream(pool, shareStreamId(auditId))).filter((e) => e.type === 'ShareExpired');
  const expected = audits.filter((x) => x.auditId !== revoked);
  await eventually(
    async () => (await Promise.all(expected.map((x) => expiredOf(x.auditId)))).every((e) => e.length > 0),
    60_000,
    'every expiry',
  );
  // Give any duplicate a chance to land before counting.
  await new Promise((r) => setTimeout(r, 1_500));

  for (const x of expected) {
    const events = await expiredOf(x.auditId);
    t.equal(events.length, 1, `${x.auditId}: exactly one ShareExpired`);
    const at = Date.parse(events[0]!.occurredAt);
    const due = Date.parse((events[0]!.payload as { expiresAt: string }).expiresAt);
    t.ok(at >= due, `${x.auditId}: not before its date`);
    // On time: within the poll interval plus a loaded machine's slack, or, across the restart, the time the new process took to start.
    t.ok(at - due < 15_000, `${x.auditId}: ${at - due} ms after its date`);
  }
  const movedEvent = (await expiredOf(moved))[0]!;
  t.ok(Date.parse(movedEvent.occurredAt) >= start + 8_000, 'the moved link expired at its new date, not the old one');
  t.same(await expiredOf(revoked), [], 'the revoked link never expires');
  const rows = await pool.query(
    `SELECT status, count(*)::int AS n FROM pipeline_tasks WHERE kind = 'timer.share-expiry' GROUP BY status`,
  );
  t.same(rows.rows, [{ status: 'done', n: 14 }], 'every timer done, the revoked one included (it fired for nothing)');
  const shares = await pool.query(`SELECT count(*)::int AS n FROM shares WHERE status = 'expired'`);
  t.equal(shares.rows[0].n, 13, 'the read model shows them expired');
});
