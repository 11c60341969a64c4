import t from 'tap';
import { createAccount } from '../../../services/admin/operations.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { startWebhookReceiver, testCaPath } from '../../helpers/webhookReceiver.ts';
import { verifyFromSpec } from '../../int/webhooks/verify.ts';
import { apiClient, bulkSite, checkLedger, serviceEnv, waitForBatch } from './fixtures.ts';

/**
 * Spec 4.4 rule 8 and 6: a batch's webhookUrl works as in single audits, one signed event per audit
 * (completed or failed), each carrying the batch's bulkId, and no event for the whole batch.
 */
t.test('a batch with webhookUrl sends one signed event per audit and none for the batch', async (t) => {
  const db = await testDatabase(t);
  const site = await bulkSite(t, 3);
  const receiver = await startWebhookReceiver(t);
  const { base } = await startService(t, serviceEnv(db.url, { NODE_EXTRA_CA_CERTS: testCaPath }), 240_000);
  const account = await createAccount(db.pool, { email: 'bulk-webhooks@example.com', credits: 10 });
  const api = apiClient(base, account.apiKey);

  const urls = [`${site.base}/p/0`, `${site.base}/p/1`, `${site.base}/missing`, `${site.base}/p/2`];
  const r = await api('POST', '/audits/bulk', { urls, webhookUrl: receiver.script('/hook', [200]) });
  t.equal(r.status, 202);
  const batch = await waitForBatch(t, api, r.body.id);
  t.match(batch, { status: 'completed', counts: { total: 4, completed: 3, failed: 1, skipped: 0 } });
  const jobIds = batch.entries.map((e: { jobId: string }) => e.jobId).sort();

  await eventually(async () => receiver.requestsTo('/hook').length >= 4, 90_000, 'four deliveries');
  // Give a wrong extra delivery (a whole-batch event, a duplicate) time to show up before counting.
  await new Promise((res) => setTimeout(res, 3000));
  const hooks = receiver.requestsTo('/hook');
  t.equal(hooks.length, 4, 'one delivery per audit, none for the batch');
  for (const h of hooks) t.equal(verifyFromSpec(h, account.webhookSecret), null, 'signed with the account secret');
  const bodies = hooks.map((h) => JSON.parse(h.rawBody));
  t.same(bodies.map((b) => b.job.id).sort(), jobIds, 'each audit of the batch once');
  t.same(hooks.map((h) => h.headers['x-service-delivery']).sort(), jobIds, 'X-Service-Delivery is the job id');
  t.ok(
    bodies.every((b) => b.job.bulkId === r.body.id),
    'every job names its batch',
  );
  t.same(bodies.map((b) => b.event).sort(), ['audit.completed', 'audit.completed', 'audit.completed', 'audit.failed']);
  t.match(bodies.find((b) => b.event === 'audit.failed').job, {
    status: 'error',
    errorCode: 'crawl_failed',
    creditsCharged: 0,
    input: { url: `${site.base}/missing` },
  });
  await checkLedger(t, db.pool, api, account.accountId, 7);
});
