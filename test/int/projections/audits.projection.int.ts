import t from 'tap';
import { randomBytes } from 'node:crypto';
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
import { envelopes, projectionSpec } from '../../helpers/projectionSpec.ts';
import type { EventEnvelope } from '../../../events/envelope.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';

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

/** `handle` on one batch in a fresh schema of its own, counting its statements; then `sql`'s rows. */
async function handleCounting(
  batches: EventEnvelope[][],
  sql: string,
): Promise<{ statements: number[]; rows: unknown[] }> {
  const schema = `spec_${randomBytes(6).toString('hex')}`;
  await pool.query(`CREATE SCHEMA ${schema}`);
  try {
    const statements: number[] = [];
    for (const batch of batches)
      await withTransaction(pool, async (tx) => {
        await tx.query(`SET LOCAL search_path TO ${schema}`);
        await tx.query(auditsProjection.createSql);
        let n = 0;
        const counting = new Proxy(tx, {
          get: (target, key) =>
            key === 'query'
              ? (...args: unknown[]) => (n++, (target.query as (...a: unknown[]) => unknown)(...args))
              : Reflect.get(target, key),
        });
        await auditsProjection.handle(batch, counting);
        statements.push(n);
      });
    const rows = await withTransaction(pool, async (tx) => {
      await tx.query(`SET LOCAL search_path TO ${schema}`);
      return (await tx.query(sql)).rows;
    });
    return { statements, rows };
  } finally {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
  }
}

const textRequest = (auditId: string) =>
  requested(auditId, { url: null, contentRef: 'c'.repeat(64), title: 'Draft', keyword: 'draft' });

t.test('a batch of supplied texts, each started with its request: their rows in one statement, running', async (t) => {
  // As a batch of submissions appends them: each audit's request, start and content, audit after audit.
  const ids = Array.from({ length: 20 }, (_, i) => `aud_${String(i).padStart(2, '0')}`);
  const batch = envelopes(
    ids.flatMap(
      (id) =>
        [
          [textRequest(id), at(id)],
          [started, at(id)],
          [fetched, at(id)],
        ] as const,
    ),
  );
  const { statements, rows } = await handleCounting(
    [batch],
    `SELECT audit_id, status, stream_version, (updated_at AT TIME ZONE 'UTC')::text AS updated_at FROM audits ORDER BY audit_id`,
  );
  t.same(statements, [1], 'one INSERT for the 20 rows, no UPDATE after it');
  t.same(
    rows,
    ids.map((id, i) => ({
      audit_id: id,
      status: 'running',
      stream_version: 2,
      // The start's own time: the second event of the audit's three.
      updated_at: new Date(Date.UTC(2026, 0, 1) + (3 * i + 1) * 1000).toISOString().replace('T', ' ').slice(0, 19),
    })),
    'each row as the three events one by one leave it',
  );
});

t.test(
  'a row already there (queued): the redelivered request leaves it, its start and what follows apply to it',
  async (t) => {
    const [req, start, content, csiEvent] = envelopes([
      [textRequest('aud_1'), A1],
      [started, A1],
      [fetched, A1],
      [csi, A1],
    ]);
    const { statements, rows } = await handleCounting(
      [[req!], [req!, start!, content!, csiEvent!]],
      'SELECT status, keyword, stream_version FROM audits',
    );
    t.same(rows, [{ status: 'running', keyword: 'content audit', stream_version: 4 }]);
    t.same(statements, [1, 3], 'the request left alone; the start and the CSI applied to the row');
  },
);
