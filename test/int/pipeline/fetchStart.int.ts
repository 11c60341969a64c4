import t from 'tap';
import { readFileSync } from 'node:fs';
import { auditStreamId } from '../../../events/audit/events.ts';
import { loadConfig } from '../../../infra/config.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import { createLogger } from '../../../infra/logger.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { startPipelineRoles } from '../../../services/pipeline/roles.ts';
import { submitAudit } from '../../../services/pipeline/submitAudit.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { servePages } from '../../helpers/pageServer.ts';
import { auditRequest } from '../../helpers/pipelineService.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';

const article = readFileSync(
  new URL('../../fixtures/engine/strong/en-listicle-running-shoes.html', import.meta.url),
  'utf8',
);

// Issue 26: a page's start (AuditStarted, `running`) used to commit before its fetch began, one
// commit ahead of the fetch on every page's path. Now the fetch runs while the start commits, and
// what the fetch found is recorded after it: the stream's order stays.
t.test('a page is fetched while its start commits; its content is recorded after the start', async (t) => {
  const { pool, url } = await testDatabase(t);
  const web = await servePages(t, { '/article': { body: article } });
  const account = await createAccount(pool, { email: 'start@example.com', credits: 2 });
  const audit = await submitAudit(pool, {
    accountId: account.accountId,
    source: 'api',
    request: auditRequest({ url: `${web.base}/article`, keyword: 'best running shoes' }),
    idempotencyKey: null,
    bulkId: null,
    now: new Date(),
    correlationId: null,
  });
  // The start's commit is held: its audits row (the inline read model) is locked by this test.
  const holder = await pool.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM audits WHERE audit_id = $1 FOR UPDATE', [audit.auditId]);
  let held = true;
  t.teardown(async () => {
    if (held) await holder.query('ROLLBACK');
    holder.release();
  });
  const stops = await startPipelineRoles(
    loadConfig({ ALLOW_PRIVATE_ADDRESSES: '1', DATABASE_URL: url, ROLES: 'crawler,auditor' }),
    pool,
    makeSubscriber('store', pool),
    createLogger('test-pipeline'),
  );
  t.teardown(async () => {
    for (const s of stops) await s();
  });
  try {
    await eventually(
      async () => (web.hits.get('/article') ?? 0) >= 1,
      10_000,
      'the page fetched before the start commits',
    );
    t.pass('fetched while the start was still to commit');
  } finally {
    // Released whatever happened: the workers cannot stop while their start waits for it.
    await holder.query('ROLLBACK');
    held = false;
  }
  await eventually(
    async () =>
      (await pool.query('SELECT status FROM audits WHERE audit_id = $1', [audit.auditId])).rows[0]?.status ===
      'completed',
    60_000,
    'the page audit to complete',
  );
  t.same(
    (await readStream(pool, auditStreamId(audit.auditId))).map((e) => e.type),
    ['AuditRequested', 'AuditStarted', 'ContentFetched', 'CsiDerived', 'AuditCharged', 'AuditCompleted'],
    'started, then its content: the order as before',
  );
});
