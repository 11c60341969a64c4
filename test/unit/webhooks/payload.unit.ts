import t from 'tap';
import type { EventEnvelope } from '../../../events/envelope.ts';
import { webhookOf } from '../../../services/webhooks/payload.ts';

let v = 0;
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const env = (type: string, payload: unknown, second: number): EventEnvelope => ({
  id: `e${++v}`,
  type,
  version: 1,
  accountId: 'usr_1',
  streamId: 'audit-aud_1',
  streamVersion: v,
  position: { txId: BigInt(v), seq: 1n },
  occurredAt: at(second),
  causationId: null,
  correlationId: null,
  payload,
});
const requested = (over: Record<string, unknown> = {}) =>
  env(
    'AuditRequested',
    {
      auditId: 'aud_1',
      jobId: 'job_1',
      source: 'api',
      url: 'https://example.com/a',
      contentRef: null,
      title: null,
      keyword: null,
      language: null,
      project: 'Blog',
      share: false,
      shareExpiresInDays: null,
      webhookUrl: 'https://hooks.example.com/in',
      bulkId: null,
      idempotencyKey: null,
      ...over,
    },
    0,
  );
const csi = () =>
  env(
    'CsiDerived',
    {
      keyword: 'city bike',
      language: 'en',
      centralEntity: 'x',
      sourceContext: 'x',
      centralSearchIntent: 'x',
      predicate: 'x',
    },
    20,
  );
const charged = () => env('AuditCharged', { chargeId: 'c1', credits: 1 }, 21);
const completed = () => env('AuditCompleted', { cqs: 70, resultJson: '{}' }, 90);
const failed = () =>
  env('AuditFailed', { errorCode: 'crawl_failed', errorMessage: 'the page answered HTTP 404', stage: 'fetch' }, 5);

t.test('audit.completed carries the job fields of spec 6, with the keyword and language it ran on', async (t) => {
  v = 0;
  const d = webhookOf([requested(), env('AuditStarted', { attempt: 1 }, 1), csi(), charged(), completed()])!;
  t.same(
    { ...d, body: undefined },
    {
      jobId: 'job_1',
      auditId: 'aud_1',
      event: 'audit.completed',
      url: 'https://hooks.example.com/in',
      body: undefined,
    },
  );
  t.same(JSON.parse(d.body), {
    event: 'audit.completed',
    job: {
      id: 'job_1',
      status: 'completed',
      auditId: 'aud_1',
      bulkId: null,
      project: 'Blog',
      input: { url: 'https://example.com/a', keyword: 'city bike', language: 'en' },
      creditsCharged: 1,
      errorCode: null,
      createdAt: at(0),
      completedAt: at(90),
    },
    apiVersion: 'v1.4',
  });
  t.same(Object.keys(JSON.parse(d.body)), ['event', 'job', 'apiVersion'], "top-level fields in the spec's order");
});

t.test('audit.failed carries errorCode, no charge, and the keyword as asked', async (t) => {
  v = 0;
  const d = webhookOf([requested({ keyword: 'as asked', bulkId: 'bulk_9' }), failed()])!;
  const body = JSON.parse(d.body);
  t.equal(body.event, 'audit.failed');
  t.match(body.job, {
    status: 'error',
    errorCode: 'crawl_failed',
    creditsCharged: 0,
    bulkId: 'bulk_9',
    input: { keyword: 'as asked', language: null },
    completedAt: at(5),
  });
});

t.test('none owed: no webhookUrl, a panel audit without job id, or not finished', async (t) => {
  v = 0;
  t.equal(webhookOf([requested({ webhookUrl: null }), completed()]), null, 'no webhookUrl');
  v = 0;
  t.equal(webhookOf([requested({ jobId: null, source: 'panel' }), completed()]), null, 'panel audit');
  v = 0;
  t.equal(webhookOf([requested(), csi()]), null, 'still running');
});

t.test('a project reassigned after the outcome is not part of it', async (t) => {
  v = 0;
  const events = [requested(), failed()];
  const later = env('AuditProjectAssigned', { project: 'Later', actor: 'app' }, 99);
  // The scheduler passes the stream up to the outcome; the function itself stops at the outcome too.
  t.equal(JSON.parse(webhookOf([...events, later])!.body).job.project, 'Blog');
});
