import { randomBytes } from 'node:crypto';
import { auditStreamId } from '../../../events/audit/events.ts';
import { handleCommand } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { auditDecider, type AuditCommand } from '../../../services/domain/audit/decider.ts';

/**
 * An audit driven straight through its own decider to an outcome, for tests about what happens
 * after it (the engine and crawler are not what they test). The pipeline test does it for real.
 */
export async function finishedAudit(
  pool: Pool,
  accountId: string,
  o: { webhookUrl: string | null; outcome: 'completed' | 'failed'; jobId?: string | null; bulkId?: string | null },
) {
  const auditId = `aud_${randomBytes(8).toString('hex')}`;
  const jobId = o.jobId === undefined ? `job_${randomBytes(8).toString('hex')}` : o.jobId;
  const steps: AuditCommand[] = [
    {
      type: 'RequestAudit',
      data: {
        auditId,
        jobId,
        source: jobId ? 'api' : 'panel',
        url: 'https://example.com/article',
        contentRef: null,
        title: null,
        keyword: null,
        language: null,
        project: 'Site',
        share: false,
        shareExpiresInDays: null,
        webhookUrl: o.webhookUrl,
        bulkId: o.bulkId ?? null,
        idempotencyKey: null,
      },
    },
    { type: 'StartAudit', data: { attempt: 1 } },
  ];
  if (o.outcome === 'completed') {
    steps.push(
      {
        type: 'RecordContent',
        data: { contentRef: 'ref', format: 'html', finalUrl: 'https://example.com/article', chars: 3000 },
      },
      {
        type: 'RecordCsi',
        data: {
          keyword: 'city bikes',
          language: 'en',
          centralEntity: 'city bike',
          sourceContext: 'shop',
          centralSearchIntent: 'choose',
          predicate: 'choose',
        },
      },
      { type: 'RecordCharge', data: { chargeId: `chg_${auditId}`, credits: 1 } },
      { type: 'CompleteAudit', data: { cqs: 72, resultJson: '{}' } },
    );
  } else {
    steps.push({
      type: 'FailAudit',
      data: { errorCode: 'crawl_failed', errorMessage: 'the page answered HTTP 404 Not Found', stage: 'fetch' },
    });
  }
  for (const command of steps)
    await handleCommand(pool, {
      decider: auditDecider,
      streamId: auditStreamId(auditId),
      accountId,
      command,
      now: new Date(),
    });
  return { auditId, jobId };
}
