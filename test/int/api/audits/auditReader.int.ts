import t from 'tap';
import { auditsProjection } from '../../../../projections/audits/projection.ts';
import { createProjectionTables } from '../../../../projections/runner.ts';
import { createAuditReader } from '../../../../services/api/audits/auditReader.ts';
import { testDatabase } from '../../../helpers/db.ts';

/**
 * The poll's reads of one process are coalesced into one statement (services/api/audits/auditReader.ts):
 * each still gets its own account's audit, by job or audit id, and nothing of another account.
 */
t.test("concurrent reads of two accounts: each its own audit, another account's id is not found", async (t) => {
  const { pool } = await testDatabase(t);
  await createProjectionTables(pool, [auditsProjection]);
  for (const [audit, job, account] of [
    ['aud_a1', 'job_a1', 'acc_a'],
    ['aud_a2', 'job_a2', 'acc_a'],
    ['aud_b1', 'job_b1', 'acc_b'],
  ]) {
    await pool.query(
      `INSERT INTO audits (audit_id, job_id, account_id, source, status, created_at, updated_at, stream_version) VALUES ($1, $2, $3, 'api', 'queued', now(), now(), 1)`,
      [audit, job, account],
    );
  }
  const reader = createAuditReader(pool);
  const asks: [string, string, string | null][] = [];
  for (let i = 0; i < 60; i++) {
    asks.push(
      ['acc_a', 'job_a1', 'aud_a1'],
      ['acc_a', 'aud_a2', 'aud_a2'],
      ['acc_b', 'job_b1', 'aud_b1'],
      ['acc_b', 'job_a1', null],
      ['acc_a', 'aud_b1', null],
      ['acc_a', 'job_zz', null],
    );
  }
  const rows = await Promise.all(asks.map(([account, id]) => reader.find(account, id)));
  t.same(
    rows.map((r) => r?.auditId ?? null),
    asks.map((a) => a[2]),
    'every read answered with its own row or null',
  );
  t.ok(
    rows.every((r, i) => r === null || r.accountId === asks[i]![0]),
    "never another account's row",
  );
  t.equal((await reader.find('acc_b', 'aud_b1'))?.jobId, 'job_b1', 'a lone read is answered too');
});
