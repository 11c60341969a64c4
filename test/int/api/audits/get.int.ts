import t from 'tap';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { assignProject } from '../../../../services/admin/audits.ts';
import { AuditResultV1Schema } from '../../../../services/engine/resultSchema.ts';
import { CONTENT, URL } from '../../../unit/api/audits/submissionCases.ts';
import {
  auditApi,
  bearer,
  completeAudit,
  engineResult,
  failAudit,
  PUBLIC_BASE_URL,
  seedAudit,
  startAudit,
} from './fixtures/auditApi.ts';

const resultCheck = TypeCompiler.Compile(AuditResultV1Schema);

/** GET /audits/{id} (spec 4.3, 2.3): the three shapes, by job id or audit id, only the account's own. */
t.test('GET /api/v1/audits/{id}', async (t) => {
  const f = await auditApi(t);
  const a = await f.account();
  const get = (id: string, apiKey = a.apiKey) =>
    f.app.inject({ method: 'GET', url: `/api/v1/audits/${encodeURIComponent(id)}`, headers: bearer(apiKey) });
  const submit = async (payload: Record<string, unknown>) => {
    const res = await f.app.inject({ method: 'POST', url: '/api/v1/audits', headers: bearer(a.apiKey), payload });
    t.equal(res.statusCode, 202);
    return res.json() as { id: string; auditId: string; createdAt: string };
  };

  t.test(
    'queued and running: {id, status, auditId, project, createdAt, apiVersion}, by job id and by audit id',
    async (t) => {
      const job = await submit({ url: URL, project: 'Acme' });
      const byJob = await get(job.id);
      t.equal(byJob.statusCode, 200);
      t.same(byJob.json(), {
        id: job.id,
        status: 'queued',
        auditId: job.auditId,
        project: 'Acme',
        createdAt: job.createdAt,
        apiVersion: 'v1.4',
      });
      t.same((await get(job.auditId)).json(), byJob.json(), 'the audit id finds the same job, shown under its job id');
      await startAudit(f.pool, a.accountId, job.auditId);
      await f.waitFor(a.accountId, job.auditId, (r) => r.status === 'running');
      t.same((await get(job.id)).json(), { ...byJob.json(), status: 'running' });
      await failAudit(f.pool, a.accountId, job.auditId);
    },
  );

  t.test('error: {id, status, errorCode, errorMessage, createdAt, apiVersion}', async (t) => {
    const job = await submit({ url: URL });
    await failAudit(f.pool, a.accountId, job.auditId, 'crawl_failed', 'the page answered HTTP 404 Not Found');
    await f.waitFor(a.accountId, job.auditId, (r) => r.status === 'error');
    t.same((await get(job.id)).json(), {
      id: job.id,
      status: 'error',
      errorCode: 'crawl_failed',
      errorMessage: 'the page answered HTTP 404 Not Found',
      createdAt: job.createdAt,
      apiVersion: 'v1.4',
    });
  });

  t.test('completed: the full AuditResultV1, valid against its schema; apiVersion under meta only', async (t) => {
    const job = await submit({ content: CONTENT.repeat(3), keyword: 'descale kettle', project: 'Kitchen' });
    const result = engineResult('en-howto-descale');
    await completeAudit(f.pool, a.accountId, job.auditId, result);
    await f.waitFor(a.accountId, job.auditId, (r) => r.status === 'completed');
    const res = await get(job.id);
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.ok(
      resultCheck.Check(body),
      `valid AuditResultV1: ${JSON.stringify([...resultCheck.Errors(body)].slice(0, 3).map((e) => `${e.path} ${e.message}`))}`,
    );
    t.same(Object.keys(body), [
      'id',
      'status',
      'createdAt',
      'completedAt',
      'input',
      'scores',
      'csi',
      'dimensions',
      'eeat',
      'recommendations',
      'benchmark',
      'summary',
      'meta',
    ]);
    t.equal(body.id, job.id);
    t.equal(body.status, 'completed');
    t.equal(body.createdAt, job.createdAt);
    t.ok(body.completedAt >= body.createdAt);
    t.equal(body.apiVersion, undefined, 'no top-level apiVersion on the full result (spec 9.3)');
    t.same(body.input, {
      url: null,
      keyword: result.input.keyword,
      language: result.input.language,
      project: 'Kitchen',
    });
    t.same(body.scores, result.scores);
    t.same(body.csi, result.csi);
    t.same(body.dimensions, result.dimensions);
    t.same(body.recommendations, result.recommendations);
    t.same(body.summary, result.summary);
    t.same(body.meta, {
      creditsCharged: 1,
      apiVersion: 'v1.4',
      reportUrl: `${PUBLIC_BASE_URL}/app/audits/${job.auditId}`,
      shareUrl: null,
      shareExpiresAt: null,
    });
    t.same((await get(job.auditId)).json(), body, 'by audit id: the same document');

    t.test('a reassignment is visible in input.project; unassigning gives null', async (t) => {
      await assignProject(f.pool, { auditId: job.auditId, project: 'Moved' });
      await f.waitFor(a.accountId, job.auditId, (r) => r.project === 'Moved');
      t.equal((await get(job.id)).json().input.project, 'Moved');
      await assignProject(f.pool, { auditId: job.auditId, project: null });
      await f.waitFor(a.accountId, job.auditId, (r) => r.project === null);
      t.equal((await get(job.id)).json().input.project, null);
    });
  });

  t.test('a completed URL audit carries its url; an unlimited account shows creditsCharged 0', async (t) => {
    const u = await f.account({ unlimited: true });
    const job = await seedAudit(f.pool, {
      accountId: u.accountId,
      now: new Date(),
      request: { url: 'https://blog.example.com/descale' },
    });
    await completeAudit(
      f.pool,
      u.accountId,
      job.auditId,
      engineResult('en-howto-descale', { url: 'https://blog.example.com/descale' }),
      0,
    );
    await f.waitFor(u.accountId, job.auditId, (r) => r.status === 'completed');
    const body = (await get(job.jobId!, u.apiKey)).json();
    t.ok(resultCheck.Check(body));
    t.equal(body.input.url, 'https://blog.example.com/descale');
    t.equal(body.meta.creditsCharged, 0);
  });

  t.test(
    'an audit created in the app: read by its audit id, which is also its id; errorCode null (spec 2.2)',
    async (t) => {
      const panel = await seedAudit(f.pool, {
        accountId: a.accountId,
        now: new Date(),
        source: 'panel',
        request: { url: URL, project: 'App' },
      });
      t.equal(panel.jobId, null);
      const queued = (await get(panel.auditId)).json();
      t.same(queued, {
        id: panel.auditId,
        status: 'queued',
        auditId: panel.auditId,
        project: 'App',
        createdAt: panel.createdAt,
        apiVersion: 'v1.4',
      });
      await failAudit(f.pool, a.accountId, panel.auditId, 'crawl_failed', 'the page could not be fetched');
      await f.waitFor(a.accountId, panel.auditId, (r) => r.status === 'error');
      t.same((await get(panel.auditId)).json(), {
        id: panel.auditId,
        status: 'error',
        errorCode: null,
        errorMessage: 'the page could not be fetched',
        createdAt: panel.createdAt,
        apiVersion: 'v1.4',
      });

      const done = await seedAudit(f.pool, {
        accountId: a.accountId,
        now: new Date(),
        source: 'panel',
        request: { content: CONTENT },
      });
      await completeAudit(f.pool, a.accountId, done.auditId);
      await f.waitFor(a.accountId, done.auditId, (r) => r.status === 'completed');
      const full = (await get(done.auditId)).json();
      t.ok(resultCheck.Check(full));
      t.equal(full.id, done.auditId, 'a completed app audit: id is its audit id (AuditResultV1.id is a string)');
    },
  );

  t.test("404 not_found: an unknown id, and another account's job or audit id, alike", async (t) => {
    const job = await submit({ url: URL });
    const other = await f.account();
    for (const [what, id, key] of [
      ['unknown job', 'job_000000000000000000000000', a.apiKey],
      ['unknown audit', 'aud_nope', a.apiKey],
      ['garbage', '%%%', a.apiKey],
      ["another account's job id", job.id, other.apiKey],
      ["another account's audit id", job.auditId, other.apiKey],
    ] as const) {
      const res = await get(id, key);
      t.equal(res.statusCode, 404, what);
      t.same(
        res.json(),
        {
          error: { code: 'not_found', message: 'Audit not found', requestId: res.headers['x-request-id'] },
          apiVersion: 'v1.4',
        },
        what,
      );
    }
    await failAudit(f.pool, a.accountId, job.auditId);
  });
});
