import t from 'tap';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../../services/admin/operations.ts';
import { GENERATE, taskSubject } from '../../../services/apply/requestGeneration.ts';
import { admin } from '../../helpers/adminCli.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { startWorkerProcess } from '../bulk/fixtures.ts';
import { completedTextAudit } from '../../int/apply/fixtures.ts';

/**
 * Issue 13's must-show: the apply role in a process of its own, SIGKILLed while a generation is in
 * flight (its task leased, the revision still generating) and started again. The revision ends,
 * completed or failed and refunded; the credit is charged once; `ledger verify` is ok. Then an
 * owner's edit through the real CLI (`apply edit`) comes back from GET with editedInPanel.
 */
t.test('the apply role killed mid-generation and restarted', async (t) => {
  const db = await testDatabase(t);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    ALLOW_PRIVATE_ADDRESSES: '1',
    PIPELINE_LEASE_SECONDS: '3',
    PIPELINE_POLL_MS: '20',
  };
  const { base } = await startService(t, { ...env, ROLES: 'api,projections' });
  const account = await createAccount(db.pool, { email: 'apply-kill@example.com', credits: 5 });
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${account.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  // A long article with many selectable items: the generation's guard runs the engine once per item.
  const { auditId, jobId } = await completedTextAudit(db.pool, account.accountId, 'en-review-ereader');
  await eventually(
    async () => (await api('GET', `/audits/${jobId}`)).body.status === 'completed',
    60_000,
    'the audit read model',
  );
  const selectedIds = (
    (await api('GET', `/audits/${jobId}/apply/items`)).body.items as { id: string; selectable: boolean }[]
  )
    .filter((i) => i.selectable)
    .map((i) => i.id);
  t.ok(selectedIds.length >= 4, `${selectedIds.length} selectable items`);
  const started = await api('POST', `/audits/${jobId}/apply`, { selectedIds });
  t.equal(started.status, 202);
  const revisionId = started.body.revisionId as string;
  const taskId = `${GENERATE}:${taskSubject(auditId, revisionId)}`;
  const generated = async () =>
    (
      await db.pool.query(
        `SELECT 1 FROM events WHERE stream_id = $1 AND type IN ('RevisionGenerated', 'RevisionFailed') AND payload->>'revisionId' = $2`,
        [`revision-${auditId}`, revisionId],
      )
    ).rowCount! > 0;

  let worker = await startWorkerProcess(t, { ...env, ROLES: 'apply' });
  await eventually(
    async () =>
      (
        await db.pool.query(
          `SELECT 1 FROM pipeline_tasks WHERE task_id = $1 AND attempts >= 1 AND status = 'pending'`,
          [taskId],
        )
      ).rowCount === 1,
    60_000,
    'the generation to be claimed',
  );
  worker.kill('SIGKILL');
  await once(worker, 'exit');
  t.equal(await generated(), false, 'killed while the generation was in flight (no outcome yet)');
  t.equal((await api('GET', `/audits/${jobId}/apply/${revisionId}`)).body.status, 'generating');

  worker = await startWorkerProcess(t, { ...env, ROLES: 'apply' });
  let rev: any;
  await eventually(
    async () => {
      rev = (await api('GET', `/audits/${jobId}/apply/${revisionId}`)).body;
      return rev.status === 'failed' || (rev.status === 'completed' && rev.measurement?.status !== 'running');
    },
    120_000,
    'the revision to end',
  );
  const charges = await db.pool.query(
    `SELECT payload FROM events WHERE stream_id = $1 AND type = 'CreditCharged' AND payload->>'kind' = 'apply'`,
    [`account-${account.accountId}`],
  );
  t.equal(charges.rowCount, 1, 'the generation was charged once');
  const refunds = await db.pool.query(`SELECT 1 FROM events WHERE stream_id = $1 AND type = 'CreditRefunded'`, [
    `account-${account.accountId}`,
  ]);
  if (rev.status === 'completed') {
    t.equal(refunds.rowCount, 0, 'completed: nothing refunded');
    t.ok(rev.result.appliedIds.length > 0, `applied ${rev.result.appliedIds.length}`);
    t.equal(rev.measurement.status, 'completed');
  } else t.equal(refunds.rowCount, 1, 'failed: refunded once');
  const attempts = await db.pool.query(`SELECT attempts, status FROM pipeline_tasks WHERE task_id = $1`, [taskId]);
  t.match(attempts.rows[0], { status: 'done' }, `the task done after ${attempts.rows[0]?.attempts} claims`);
  t.ok(attempts.rows[0].attempts >= 2, 'it was claimed again after the kill');

  // 2.6 editedInPanel: the operator CLI stands in for the app, as a child process.
  const one = await api('POST', `/audits/${jobId}/apply`, { selectedIds: selectedIds.slice(0, 1) });
  t.equal(one.status, 202, 'a second selection');
  await eventually(
    async () => (await api('GET', `/audits/${jobId}/apply/${one.body.revisionId}`)).body.status === 'completed',
    120_000,
    'the second revision',
  );
  const dir = await mkdtemp(join(tmpdir(), 'apply-edit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'edited.md');
  const editedText =
    '# Edited in the app\n\nThe owner rewrote this paragraph by hand, with a [link](https://example.com).\n';
  await writeFile(file, editedText);
  const edit = await admin({ ...env }, 'apply', 'edit', '--revision', one.body.revisionId, '--file', file);
  t.equal(edit.code, 0, `apply edit exits 0: ${edit.stdout}${JSON.stringify(edit.stderr)}`);
  t.match(edit.json, { revisionId: one.body.revisionId, auditId });
  const after = (await api('GET', `/audits/${jobId}/apply/${one.body.revisionId}`)).body;
  t.match(
    after.result,
    { markdown: editedText, editedInPanel: true },
    'GET returns the edited version with editedInPanel',
  );
  t.equal(
    (await api('GET', `/audits/${jobId}/apply/${revisionId}`)).body.result?.editedInPanel ?? false,
    false,
    'the other revision is untouched',
  );
  const unknown = await admin({ ...env }, 'apply', 'edit', '--revision', 'rev_nope', '--file', file);
  t.equal(unknown.code, 1, 'an unknown revision is refused');
  t.match(unknown.stderr, { error: { code: 'not_found' } });
  const noFile = await admin({ ...env }, 'apply', 'edit', '--revision', one.body.revisionId);
  t.equal(noFile.code, 2, 'a missing --file is a bad argument');

  const verify = await admin({ ...env }, 'ledger', 'verify', '--account', account.accountId);
  t.equal(verify.code, 0, `ledger verify exits 0: ${verify.stdout}${JSON.stringify(verify.stderr)}`);
  t.match(verify.json, { accountId: account.accountId, ok: true, balance: rev.status === 'completed' ? 2 : 3 });
});
