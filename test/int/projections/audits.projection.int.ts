import t from 'tap';
import {
  AuditCharged,
  AuditCompleted,
  AuditFailed,
  AuditProjectAssigned,
  AuditRequested,
  AuditStarted,
  ContentFetched,
  CsiDerived,
  auditStreamId,
} from '../../../events/audit/events.ts';
import { auditsProjection } from '../../../projections/audits/projection.ts';
import { testDatabase } from '../../helpers/db.ts';
import { projectionSpec } from '../../helpers/projectionSpec.ts';

/** Audits and jobs folded from audit events alone (no pipeline): projections/audits/projection.ts. */
const { pool } = await testDatabase(t, 4);
const at = (auditId: string, accountId = 'acc_a') => ({ accountId, streamId: auditStreamId(auditId) });
const A1 = at('aud_1');

const requested = (auditId: string, over: Partial<AuditRequested['data']> = {}) =>
  AuditRequested({
    auditId,
    jobId: `job_${auditId}`,
    source: 'api',
    url: 'https://WWW.Example.COM./blog/post?x=1',
    contentRef: null,
    title: null,
    keyword: null,
    language: null,
    project: 'blog',
    share: false,
    shareExpiresInDays: null,
    webhookUrl: null,
    bulkId: null,
    idempotencyKey: null,
    ...over,
  });
const started = AuditStarted({ attempt: 1 });
const fetched = ContentFetched({
  contentRef: 'c'.repeat(64),
  format: 'html',
  finalUrl: 'https://example.com/blog/post',
  chars: 1200,
});
const csi = CsiDerived({
  keyword: 'content audit',
  language: 'en',
  centralEntity: 'audit',
  sourceContext: 'blog',
  centralSearchIntent: 'learn',
  predicate: 'how',
});
const charged = AuditCharged({ chargeId: 'chg_audit_aud_1', credits: 1 });
const RESULT = { cqs: 87.5, sections: [{ name: 'structure', score: 90 }] };
const completed = AuditCompleted({ cqs: 87.5, resultJson: JSON.stringify(RESULT), benchmarkRef: null });
const failed = AuditFailed({ errorCode: 'crawl_failed', errorMessage: 'The page answered 404', stage: 'fetch' });

const ts = (c: string) => `(${c} AT TIME ZONE 'UTC')::text AS ${c}`;
const AUDITS = `SELECT audit_id, job_id, account_id, source, status, project, url, domain, keyword, language, credits_charged, cqs,
                       error_code, error_message, result, ${ts('created_at')}, ${ts('updated_at')}, ${ts('completed_at')}, stream_version
                FROM audits ORDER BY audit_id`;

const queued = {
  audit_id: 'aud_1',
  job_id: 'job_aud_1',
  account_id: 'acc_a',
  source: 'api',
  status: 'queued',
  project: 'blog',
  url: 'https://WWW.Example.COM./blog/post?x=1',
  domain: 'example.com',
  keyword: null,
  language: null,
  credits_charged: 0,
  cqs: null,
  error_code: null,
  error_message: null,
  result: null,
  created_at: '2026-01-01 00:00:00',
  updated_at: '2026-01-01 00:00:00',
  completed_at: null,
  stream_version: 1,
};

t.test('requested: a queued row with what was asked for, its domain without www, lower-case', async (t) => {
  await projectionSpec(pool, auditsProjection)
    .given([[requested('aud_1'), A1]])
    .then(t, AUDITS, [queued]);
});

t.test('domain: none for supplied content, the host for any other url', async (t) => {
  await projectionSpec(pool, auditsProjection)
    .given([
      [requested('aud_1', { url: null, contentRef: 'c'.repeat(64), title: 'Draft' }), A1],
      [requested('aud_2', { url: 'http://shop.example.org:8080/a' }), at('aud_2')],
      [requested('aud_3', { url: 'https://www.www.example.net/' }), at('aud_3')],
    ])
    .then(t, 'SELECT audit_id, url, domain FROM audits ORDER BY audit_id', [
      { audit_id: 'aud_1', url: null, domain: null },
      { audit_id: 'aud_2', url: 'http://shop.example.org:8080/a', domain: 'shop.example.org' },
      { audit_id: 'aud_3', url: 'https://www.www.example.net/', domain: 'www.example.net' },
    ]);
});

t.test(
  'requested, started, fetched, derived, charged, completed: running, then completed with its result',
  async (t) => {
    const head = [
      [requested('aud_1'), A1],
      [started, A1],
    ] as const;
    await projectionSpec(pool, auditsProjection)
      .given(head)
      .then(
        t,
        AUDITS,
        [{ ...queued, status: 'running', updated_at: '2026-01-01 00:00:01', stream_version: 2 }],
        'running',
      );
    await projectionSpec(pool, auditsProjection)
      .given([...head, [fetched, A1], [csi, A1], [charged, A1], [completed, A1]])
      .then(
        t,
        AUDITS,
        [
          {
            ...queued,
            status: 'completed',
            keyword: 'content audit',
            language: 'en',
            credits_charged: 1,
            cqs: 87.5,
            result: RESULT,
            updated_at: '2026-01-01 00:00:05',
            completed_at: '2026-01-01 00:00:05',
            stream_version: 6,
          },
        ],
        'completed',
      );
  },
);

t.test('failed: status error with the error code and message, no result', async (t) => {
  await projectionSpec(pool, auditsProjection)
    .given([
      [requested('aud_1'), A1],
      [started, A1],
      [failed, A1],
    ])
    .then(t, AUDITS, [
      {
        ...queued,
        status: 'error',
        error_code: 'crawl_failed',
        error_message: 'The page answered 404',
        updated_at: '2026-01-01 00:00:02',
        completed_at: '2026-01-01 00:00:02',
        stream_version: 3,
      },
    ]);
});

t.test('project reassigned, then cleared', async (t) => {
  await projectionSpec(pool, auditsProjection)
    .given([
      [requested('aud_1'), A1],
      [completed, A1],
      [AuditProjectAssigned({ project: 'shop', actor: 'usr_1' }), A1],
    ])
    .then(
      t,
      'SELECT project, status, stream_version FROM audits',
      [{ project: 'shop', status: 'completed', stream_version: 3 }],
      'reassigned',
    );
  await projectionSpec(pool, auditsProjection)
    .given([
      [requested('aud_1'), A1],
      [AuditProjectAssigned({ project: null, actor: 'usr_1' }), A1],
    ])
    .then(t, 'SELECT project, stream_version FROM audits', [{ project: null, stream_version: 2 }], 'cleared');
});

t.test('the second application of the same events changes nothing (stream version guard)', async (t) => {
  const done = {
    ...queued,
    status: 'completed',
    keyword: 'content audit',
    language: 'en',
    credits_charged: 1,
    cqs: 87.5,
    result: RESULT,
    updated_at: '2026-01-01 00:00:05',
    completed_at: '2026-01-01 00:00:05',
    stream_version: 6,
  };
  const given = [
    [requested('aud_1'), A1],
    [started, A1],
    [fetched, A1],
    [csi, A1],
    [charged, A1],
    [completed, A1],
  ] as const;
  // Applied again, AuditStarted would put a completed audit back to running without the guard.
  await projectionSpec(pool, auditsProjection).given(given).thenAgain(t, AUDITS, [done], 'one by one');
  await projectionSpec(pool, auditsProjection)
    .given(given, { inOneBatch: true })
    .thenAgain(t, AUDITS, [done], 'one batch');
  await projectionSpec(pool, auditsProjection)
    .given([
      [requested('aud_1'), A1],
      [started, A1],
      [failed, A1],
    ])
    .thenAgain(
      t,
      'SELECT status, error_code, stream_version FROM audits',
      [{ status: 'error', error_code: 'crawl_failed', stream_version: 3 }],
      'failed',
    );
});
