import t from 'tap';
import { createAccount } from '../../../services/admin/operations.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { apiClient, article, bulkSite, checkLedger, serviceEnv, waitForBatch } from './fixtures.ts';

/**
 * The inactivity timeout (spec 3.2), forced: BULK_INACTIVITY_SECONDS=3 and a crawler stalled on a
 * page that never answers. The scheduler closes the batch as error once, the credits of the audits
 * that never ran come back, and the account can submit again.
 */
t.test('a batch without progress is closed as error by the scheduler, once', async (t) => {
  const db = await testDatabase(t);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  t.teardown(() => release());
  const site = await bulkSite(t, 4, { '/stalled': { body: article(2).page.body, hold: held } });
  const { base } = await startService(
    t,
    serviceEnv(db.url, { BULK_INACTIVITY_SECONDS: '3', CRAWL_TIMEOUT_MS: '120000' }),
    240_000,
  );
  const account = await createAccount(db.pool, { email: 'bulk-timeout@example.com', credits: 10 });
  const api = apiClient(base, account.apiKey);

  const submittedAt = Date.now();
  const r = await api('POST', '/audits/bulk', {
    urls: [`${site.base}/stalled`, `${site.base}/p/1`, `${site.base}/p/2`, `${site.base}/p/3`],
  });
  t.equal(r.status, 202);
  const id = r.body.id;
  await eventually(async () => (site.hits.get('/stalled') ?? 0) > 0, 30_000, 'the crawler to stall on the page');
  t.equal(
    (await api('POST', '/audits/bulk', { urls: [`${site.base}/p/0`] })).body.error.code,
    'bulk_in_progress',
    'blocked while it hangs',
  );

  const closed = await waitForBatch(t, api, id, undefined, 60_000);
  const waited = (Date.now() - submittedAt) / 1000;
  t.ok(waited >= 3, `closed after the inactivity period (${waited.toFixed(1)} s)`);
  t.match(closed, {
    status: 'error',
    counts: { total: 4, completed: 0, failed: 1, pending: 0, skipped: 3 },
    creditsCharged: 0,
  });
  t.match(closed.entries[0], { status: 'error', error: /inactivity/ });
  let job: any;
  await eventually(
    async () => (job = (await api('GET', `/audits/${closed.entries[0].jobId}`)).body).status === 'error',
    30_000,
    'the read model to show the stopped job',
  );
  t.match(job, { status: 'error', errorCode: 'internal_error', errorMessage: /inactivity/ });
  await checkLedger(t, db.pool, api, account.accountId, 10);

  // The stalled fetch finally answers: the audit stays ended, nothing is charged.
  release();
  await new Promise((r) => setTimeout(r, 2000));
  const timedOut = await db.pool.query(
    `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'BulkTimedOut'`,
    [`bulk-${id}`],
  );
  t.equal(timedOut.rows[0].n, 1, 'the timeout event was emitted once');
  t.match((await api('GET', `/audits/${closed.entries[0].jobId}`)).body, { status: 'error' });
  await checkLedger(t, db.pool, api, account.accountId, 10);
  t.equal((await api('POST', '/audits/bulk', { urls: [`${site.base}/p/0`] })).status, 202, 'the account is unblocked');
});
