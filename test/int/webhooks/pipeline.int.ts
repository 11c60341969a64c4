import t from 'tap';
import { readFileSync } from 'node:fs';
import { accountStreamId } from '../../../events/account/index.ts';
import { webhookStreamId } from '../../../events/webhook/events.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { submitAudit, type AuditRequestInput } from '../../../services/pipeline/submitAudit.ts';
import { eventually } from '../../helpers/db.ts';
import { auditRequest, startPipelineService } from '../../helpers/pipelineService.ts';
import { servePages } from '../../helpers/pageServer.ts';
import type { AdapterKind } from '../../helpers/subscribers.ts';
import { startWebhookReceiver, testCa } from '../../helpers/webhookReceiver.ts';
import { verifyFromSpec } from './verify.ts';

const markdown = readFileSync(new URL('../../fixtures/engine/strong/en-howto-descale.md', import.meta.url), 'utf8');
const request = auditRequest;

const ended = (pool: Pool, jobId: string) =>
  eventually(
    async () =>
      (await readStream(pool, webhookStreamId(jobId))).some(
        (e) => e.type === 'WebhookDelivered' || e.type === 'WebhookAbandoned',
      ),
    90_000,
    `the webhook of ${jobId}`,
  );

for (const kind of ['store', 'kafka'] as AdapterKind[]) {
  t.test(
    `${kind}: audits submitted with webhookUrl send audit.completed and audit.failed; a refusing receiver changes neither audit nor credit`,
    async (t) => {
      const { pool } = await startPipelineService(t, kind, { webhooks: { extraCa: testCa } });
      const web = await servePages(t, {});
      const receiver = await startWebhookReceiver(t);
      const account = await createAccount(pool, { email: `pipeline-${kind}@example.com`, credits: 3 });
      const submit = (r: Partial<AuditRequestInput>) =>
        submitAudit(pool, {
          accountId: account.accountId,
          source: 'api',
          request: request(r),
          idempotencyKey: null,
          bulkId: null,
          now: new Date(),
          correlationId: null,
        });

      const failing = await submit({
        url: `${web.base}/missing`,
        keyword: 'kettle care',
        webhookUrl: receiver.script('/failed', [200]),
      });
      const passing = await submit({
        content: markdown,
        keyword: 'descale a kettle',
        project: 'Kitchen',
        webhookUrl: receiver.script('/completed', [404]),
      });
      await ended(pool, failing.jobId!);
      await ended(pool, passing.jobId!);

      const [f] = receiver.requestsTo('/failed');
      t.equal(verifyFromSpec(f!, account.webhookSecret), null, 'audit.failed is signed');
      t.match(JSON.parse(f!.rawBody), {
        event: 'audit.failed',
        apiVersion: 'v1.4',
        job: {
          id: failing.jobId,
          auditId: failing.auditId,
          status: 'error',
          errorCode: 'crawl_failed',
          creditsCharged: 0,
          bulkId: null,
          input: { url: `${web.base}/missing`, keyword: 'kettle care' },
        },
      });

      const [c] = receiver.requestsTo('/completed');
      t.equal(verifyFromSpec(c!, account.webhookSecret), null, 'audit.completed is signed');
      const job = JSON.parse(c!.rawBody).job;
      t.match(job, {
        id: passing.jobId,
        status: 'completed',
        errorCode: null,
        creditsCharged: 1,
        project: 'Kitchen',
        input: { url: null, keyword: 'descale a kettle', language: 'en' },
      });
      // The webhook may be out before the audits projection caught up: wait for the row, then compare.
      const rowOf = async () =>
        (
          await pool.query('SELECT status, credits_charged, created_at, completed_at FROM audits WHERE audit_id = $1', [
            passing.auditId,
          ])
        ).rows[0];
      await eventually(async () => (await rowOf())?.completed_at != null, 30_000, 'the audits projection');
      const row = await rowOf();
      t.equal(job.createdAt, row.created_at.toISOString(), 'createdAt as the job reads');
      t.equal(job.completedAt, row.completed_at.toISOString(), 'completedAt as the job reads');

      t.equal(receiver.requestsTo('/completed').length, 1, 'the 404 ended the attempts');
      t.same([row.status, row.credits_charged], ['completed', 1], 'the audit stays completed and charged');
      const credits = (await readStream(pool, accountStreamId(account.accountId)))
        .filter((e) => e.type.startsWith('Credit'))
        .map((e) => e.type);
      t.same(
        credits,
        ['CreditsAdjusted', 'CreditCharged'],
        'the starting credits, one charge, no refund: a receiver failure never refunds (spec 6.6)',
      );
    },
  );
}
