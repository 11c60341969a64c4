import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import {
  handleCommand,
  loadStream,
  loadStreams,
  loadWholeStream,
  transact,
  decideInTransaction,
} from '../../../infra/eventStore/eventStore.ts';
import { SNAPSHOT_EVERY } from '../../../infra/eventStore/snapshots.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { admissionDecider } from '../../../services/domain/account/admissionView.ts';
import { accountDecider } from '../../../services/domain/account/decider.ts';
import { accountStateView } from '../../helpers/accountStateView.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { testDatabase } from '../../helpers/db.ts';

const now = new Date('2026-11-01T00:00:00Z');

/** One audit's charge on the account, decided by the account decider as the pipeline asks for it. */
const chargeAudit = (pool: Pool, accountId: string, subjectId: string) =>
  handleCommand(pool, {
    decider: accountDecider,
    streamId: accountStreamId(accountId),
    accountId,
    now,
    command: { type: 'ChargeCredit', data: { kind: 'audit', subjectId, jobId: null, url: null, project: null } },
  });
/** The same decider folding the whole stream every time: what a snapshot must agree with. */
const fullFold = { ...admissionDecider, snapshot: undefined };
const plain = (s: { inFlight: ReadonlySet<string> }) => ({ ...s, inFlight: [...s.inFlight].sort() });

t.test('admission keeps a snapshot: the state read from it is the fold of the whole stream', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'snap@example.com', credits: 3 });
  const streamId = accountStreamId(a.accountId);
  const admission = (type: 'AdmitAudit' | 'ReleaseAudit', auditId: string) =>
    handleCommand(pool, {
      decider: admissionDecider,
      streamId,
      accountId: a.accountId,
      now,
      command: { type, data: { auditId } },
    });
  const charge = (subjectId: string) => chargeAudit(pool, a.accountId, subjectId);
  const purchase = (paymentId: string) =>
    handleCommand(pool, {
      decider: accountDecider,
      streamId,
      accountId: a.accountId,
      now,
      command: { type: 'PurchaseCredits', data: { paymentId, credits: 1 } },
    });
  // Many audits, each paid for: a purchase, the admission, the charge, the release.
  for (let i = 0; i < 40; i++) {
    await purchase(`pay_${i}`);
    await admission('AdmitAudit', `aud_${i}`);
    await charge(`aud_${i}`);
    await admission('ReleaseAudit', `aud_${i}`);
  }
  const snap = await pool.query<{ stream_version: number; state_version: number }>(
    `SELECT stream_version, state_version FROM stream_snapshots WHERE stream_id = $1 AND name = 'admission'`,
    [streamId],
  );
  t.equal(snap.rowCount, 1, 'a snapshot was written');
  const full = await loadStream(pool, fullFold, streamId);
  t.ok(full.version > SNAPSHOT_EVERY * 3, `${full.version} events on the stream`);
  t.ok(full.version - snap.rows[0]!.stream_version < SNAPSHOT_EVERY, 'the snapshot is recent');
  const fromSnap = await loadStream(pool, admissionDecider, streamId);
  t.equal(fromSnap.version, full.version, 'the same stream version');
  t.ok(fromSnap.events.length < SNAPSHOT_EVERY, `only ${fromSnap.events.length} events read after the snapshot`);
  t.same(plain(fromSnap.state), plain(full.state), 'the same state as folding everything');
  t.match(fromSnap.state, { open: true, balance: 3 }, 'three credits left: each audit bought its own');

  // Admission decides the same with and without it: three in flight, then 429.
  for (const id of ['x1', 'x2', 'x3']) {
    await purchase(`pay_${id}`);
    await admission('AdmitAudit', id);
  }
  await t.rejects(admission('AdmitAudit', 'x4'), { code: 'rate_limited' });
  t.same(
    plain((await loadStream(pool, admissionDecider, streamId)).state),
    plain((await loadStream(pool, fullFold, streamId)).state),
  );
});

t.test('a snapshot of another state version is ignored and replaced; none at all changes nothing', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'old@example.com', credits: 1 });
  const streamId = accountStreamId(a.accountId);
  const before = await loadStream(pool, fullFold, streamId);
  // A snapshot from an older shape of the state, claiming a balance of 99 at the stream's head.
  await pool.query(
    `INSERT INTO stream_snapshots (stream_id, name, state_version, stream_version, state)
     VALUES ($1, 'admission', 0, $2, '{"open": true, "unlimited": false, "balance": 99, "inFlight": []}')`,
    [streamId, before.version],
  );
  const loaded = await loadStream(pool, admissionDecider, streamId);
  t.equal(loaded.snapshotVersion, 0, 'not used');
  t.equal(loaded.state.balance, 1, 'the balance folded from the events');
  // A decision far enough past it rewrites it in the current version.
  await transact(pool, async (tx) => {
    const l = await loadStream(tx, admissionDecider, streamId);
    await decideInTransaction(tx, {
      decider: admissionDecider,
      streamId,
      accountId: a.accountId,
      now,
      loaded: { ...l, snapshotVersion: l.version - 100 },
      command: { type: 'AdmitAudit', data: { auditId: 'aud_1' } },
    });
  });
  const row = await pool.query<{ state_version: number; state: { balance: number } }>(
    `SELECT state_version, state FROM stream_snapshots WHERE stream_id = $1`,
    [streamId],
  );
  t.same(row.rows[0], { state_version: 1, state: { open: true, unlimited: false, balance: 1, inFlight: ['aud_1'] } });
  await pool.query('DELETE FROM stream_snapshots');
  t.same(
    plain((await loadStream(pool, admissionDecider, streamId)).state),
    plain((await loadStream(pool, fullFold, streamId)).state),
    'without snapshots: the same state',
  );
});

t.test('several streams in one read: each from its own snapshot, or from the start, or empty', async (t) => {
  const { pool } = await testDatabase(t);
  const busy = await createAccount(pool, { email: 'busy@example.com', credits: 100 });
  const quiet = await createAccount(pool, { email: 'quiet@example.com', credits: 2 });
  const busyStream = accountStreamId(busy.accountId);
  for (let i = 0; i < SNAPSHOT_EVERY + 5; i++)
    for (const type of ['AdmitAudit', 'ReleaseAudit'] as const)
      await handleCommand(pool, {
        decider: admissionDecider,
        streamId: busyStream,
        accountId: busy.accountId,
        now,
        command: { type, data: { auditId: `aud_${i}` } },
      });
  const ids = [busyStream, accountStreamId(quiet.accountId), 'account-nobody'];
  const together = await loadStreams(pool, admissionDecider, ids);
  t.ok(together.get(busyStream)!.snapshotVersion > 0, 'the busy stream starts from its snapshot');
  for (const id of ids) {
    const alone = await loadStream(pool, fullFold, id);
    t.same(plain(together.get(id)!.state), plain(alone.state), `${id}: the state of folding it alone`);
    t.equal(together.get(id)!.version, alone.version, `${id}: the same version`);
  }
});

// Issue 26: the charge (one per audit) folded the account's whole history through the account
// decider; it now reads the decider's snapshot and the events after it, deciding the same.
t.test('the account decider keeps a snapshot: a charge reads few events, and charges once', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'charges@example.com', credits: 100 });
  const streamId = accountStreamId(a.accountId);
  const charge = (subjectId: string) => chargeAudit(pool, a.accountId, subjectId);
  for (let i = 0; i < 60; i++) await charge(`aud_${i}`);
  const snap = await pool.query<{ stream_version: number }>(
    `SELECT stream_version FROM stream_snapshots WHERE stream_id = $1 AND name = 'account'`,
    [streamId],
  );
  t.equal(snap.rowCount, 1, "the account decider's snapshot was written");
  const loaded = await loadStream(pool, accountDecider, streamId);
  t.ok(loaded.events.length < SNAPSHOT_EVERY, `a charge reads ${loaded.events.length} events, not ${loaded.version}`);
  const whole = await loadWholeStream(pool, accountDecider, streamId);
  t.equal(whole.events.length, whole.version, 'the checks of the ledger fold every event, not the snapshot');
  t.equal(loaded.version, whole.version);
  t.match(loaded.state, { balance: 40, used: 60 }, 'the balance and used as the whole fold has them');
  t.same(accountStateView(loaded.state), accountStateView(whole.state), 'the same state');
  const again = await charge('aud_3');
  t.same(again.events, [], 'a subject charged before the snapshot is not charged again');
  t.equal((await charge('aud_new')).events.length, 1, 'a new one is');
});
