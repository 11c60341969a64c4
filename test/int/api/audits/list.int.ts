import t from 'tap';
import { CONTENT } from '../../../unit/api/audits/submissionCases.ts';
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

/** GET /audits (spec 4.9, 2.2): every parameter with its exact semantics. */
t.test('GET /api/v1/audits', async (t) => {
  const f = await auditApi(t);
  const a = await f.account();
  const b = await f.account();

  // name → [time, source, request, bulkId]
  const seeds = {
    t1: [
      '2026-03-01T10:00:00.000Z',
      'api',
      { url: 'https://example.com/a', project: 'Acme', keyword: 'descale kettle' },
      null,
    ],
    t2: ['2026-03-01T23:59:59.999Z', 'api', { url: 'https://www.example.com/b', project: 'acme' }, null],
    t3: ['2026-03-02T00:00:00.000Z', 'api', { url: 'https://blog.example.com/c' }, null],
    t4: ['2026-03-02T12:00:00.000Z', 'api', { url: 'https://notexample.com/d', project: 'Acme' }, null],
    t5: ['2026-03-03T08:00:00.000Z', 'api', { url: 'https://example.com.evil.org/e' }, null],
    t6: ['2026-03-03T09:00:00.000Z', 'api', { content: CONTENT, project: 'Acme', language: 'en' }, null],
    t7: ['2026-03-04T00:00:00.000Z', 'panel', { url: 'https://example.com/f', project: 'Acme' }, null],
    t8: ['2026-03-04T01:00:00.000Z', 'api', { url: 'https://shop.example.com/g' }, 'bulk_1'],
    t9: ['2026-03-04T01:00:00.000Z', 'api', { url: 'https://example.net/h' }, null],
  } as const;
  const ids: Record<string, { auditId: string; jobId: string | null }> = {};
  for (const [name, [at, source, request, bulkId]] of Object.entries(seeds)) {
    ids[name] = await seedAudit(f.pool, { accountId: a.accountId, now: new Date(at), source, request, bulkId });
  }
  const theirs = await seedAudit(f.pool, {
    accountId: b.accountId,
    now: new Date('2026-03-02T00:00:00Z'),
    request: { url: 'https://example.com/theirs', project: 'Acme' },
    bulkId: 'bulk_b',
  });
  await completeAudit(f.pool, a.accountId, ids.t1!.auditId, engineResult());
  await failAudit(f.pool, a.accountId, ids.t3!.auditId, 'crawl_failed', 'the page answered HTTP 404 Not Found');
  await startAudit(f.pool, a.accountId, ids.t4!.auditId);
  await failAudit(f.pool, a.accountId, ids.t7!.auditId, 'crawl_failed', 'the page could not be fetched');
  await f.waitFor(a.accountId, ids.t1!.auditId, (r) => r.status === 'completed');
  await f.waitFor(a.accountId, ids.t3!.auditId, (r) => r.status === 'error');
  await f.waitFor(a.accountId, ids.t4!.auditId, (r) => r.status === 'running');
  await f.waitFor(a.accountId, ids.t7!.auditId, (r) => r.status === 'error');

  const list = async (query = '', apiKey = a.apiKey) => {
    const res = await f.app.inject({
      method: 'GET',
      url: `/api/v1/audits${query ? `?${query}` : ''}`,
      headers: bearer(apiKey),
    });
    return { status: res.statusCode, body: res.json() };
  };
  /** The seeds a query returns, by name, in the order returned. */
  const names = async (query: string): Promise<string[]> => {
    const { status, body } = await list(query);
    if (status !== 200) throw new Error(`${query}: ${status} ${JSON.stringify(body)}`);
    return body.data.map(
      (row: { auditId: string }) => Object.keys(ids).find((n) => ids[n]!.auditId === row.auditId) ?? "someone else's",
    );
  };
  const tie = [ids.t8!.auditId, ids.t9!.auditId]
    .sort()
    .reverse()
    .map((id) => (id === ids.t8!.auditId ? 't8' : 't9'));
  const apiNewestFirst = [...tie, 't6', 't5', 't4', 't3', 't2', 't1'];

  t.test("default: the account's API jobs, newest first (ties by audit id), page 1 of 25", async (t) => {
    const { status, body } = await list();
    t.equal(status, 200);
    t.same(await names(''), apiNewestFirst);
    t.match(body, { page: 1, limit: 25, total: 8, hasMore: false, apiVersion: 'v1.4' });
    t.same(Object.keys(body).sort(), ['apiVersion', 'data', 'hasMore', 'limit', 'page', 'total']);
  });

  t.test('rows carry every job field of spec 2.2', async (t) => {
    const rows = (await list('source=all')).body.data as any[];
    const row = (name: string) => rows.find((r) => r.auditId === ids[name]!.auditId);
    const result = engineResult();
    t.same(row('t1'), {
      id: ids.t1!.jobId,
      status: 'completed',
      auditId: ids.t1!.auditId,
      project: 'Acme',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: row('t1').updatedAt,
      input: { url: 'https://example.com/a', keyword: result.input.keyword, language: result.input.language },
      scores: { cqs: result.scores.cqs, aiCitability: null },
      creditsCharged: 1,
      errorCode: null,
      errorMessage: null,
      reportUrl: `${PUBLIC_BASE_URL}/app/audits/${ids.t1!.auditId}`,
      bulkId: null,
      source: 'api',
    });
    t.ok(row('t1').updatedAt > row('t1').createdAt, 'updatedAt moved with the pipeline');
    t.match(row('t3'), {
      status: 'error',
      errorCode: 'crawl_failed',
      errorMessage: 'the page answered HTTP 404 Not Found',
      creditsCharged: 0,
      scores: { cqs: null, aiCitability: null },
    });
    t.match(row('t4'), { status: 'running', errorCode: null, errorMessage: null });
    // Supplied content is started with its acceptance (docs/api-decisions.md).
    t.match(row('t6'), { input: { url: null, keyword: null, language: 'en' }, status: 'running' });
    t.match(row('t8'), { bulkId: 'bulk_1' });
    t.same(
      row('t7'),
      {
        id: null,
        status: 'error',
        auditId: ids.t7!.auditId,
        project: 'Acme',
        createdAt: '2026-03-04T00:00:00.000Z',
        updatedAt: row('t7').updatedAt,
        input: { url: 'https://example.com/f', keyword: null, language: null },
        scores: { cqs: null, aiCitability: null },
        creditsCharged: 0,
        errorCode: null,
        errorMessage: 'the page could not be fetched',
        reportUrl: `${PUBLIC_BASE_URL}/app/audits/${ids.t7!.auditId}`,
        bulkId: null,
        source: 'panel',
      },
      'an app audit: id null, source panel, errorCode always null',
    );
  });

  t.test('page and limit: limit clamped at 100; hasMore; past the end empty; bad values 400', async (t) => {
    t.same(await names('limit=3'), apiNewestFirst.slice(0, 3));
    const p2 = await list('limit=3&page=2');
    t.match(p2.body, { page: 2, limit: 3, total: 8, hasMore: true });
    t.same(await names('limit=3&page=2'), apiNewestFirst.slice(3, 6));
    t.match((await list('limit=3&page=3')).body, { page: 3, total: 8, hasMore: false, data: { length: 2 } });
    t.match((await list('page=9')).body, { page: 9, total: 8, hasMore: false, data: [] });
    t.match((await list('limit=500')).body, { limit: 100 }, 'clamped, not rejected');
    t.match((await list('limit=100')).body, { limit: 100 });
    const bad: [string, string][] = [
      ['page=0', 'Invalid querystring field page: must be >= 1'],
      ['page=-1', 'Invalid querystring field page: must be >= 1'],
      ['page=1.5', 'Invalid querystring field page: must be integer'],
      ['page=two', 'Invalid querystring field page: must be integer'],
      ['limit=0', 'Invalid querystring field limit: must be >= 1'],
      ['limit=abc', 'Invalid querystring field limit: must be integer'],
    ];
    for (const [query, message] of bad) {
      const res = await list(query);
      t.equal(res.status, 400, query);
      t.equal(res.body.error.message, message, query);
    }
  });

  t.test('project: exact and case-sensitive; __none__ unassigned; empty ignored; the current assignment', async (t) => {
    t.same(await names('project=Acme'), ['t6', 't4', 't1']);
    t.same(await names('project=acme'), ['t2']);
    t.same(await names('project=ACME'), []);
    t.same(await names('project=__none__'), [...tie, 't5', 't3']);
    t.same(await names('project='), apiNewestFirst, 'project= is no filter, not "unassigned"');
    t.same(await names('project=Acme&source=all'), ['t7', 't6', 't4', 't1']);
  });

  t.test('status: each value; anything else 400', async (t) => {
    t.same(await names('status=completed'), ['t1']);
    t.same(await names('status=running'), ['t6', 't4']);
    t.same(await names('status=error'), ['t3']);
    t.same(await names('status=queued'), [...tie, 't5', 't2']);
    for (const bad of ['done', 'COMPLETED', 'failed']) {
      const res = await list(`status=${bad}`);
      t.equal(res.status, 400);
      t.same(res.body.error.message, `status must be one of queued, running, completed, error; got "${bad}"`);
    }
  });

  t.test("bulkId: the batch's jobs; another account's batch gives an empty list", async (t) => {
    t.same(await names('bulkId=bulk_1'), ['t8']);
    t.same(await names('bulkId=bulk_b'), []);
    t.match((await list('bulkId=bulk_b')).body, { total: 0, data: [] });
    t.same(await names('bulkId=bulk_unknown'), []);
  });

  t.test(
    'createdAfter / createdBefore: dates are UTC days (Before: to the END of the day), timestamps exact, both inclusive',
    async (t) => {
      t.same(await names('createdAfter=2026-03-02'), [...tie, 't6', 't5', 't4', 't3'], 't3 at 00:00:00 is in');
      t.same(await names('createdBefore=2026-03-01'), ['t2', 't1'], 't2 at 23:59:59.999 is in: the whole day');
      t.same(await names('createdAfter=2026-03-02&createdBefore=2026-03-02'), ['t4', 't3'], 'one day');
      t.same(
        await names('createdAfter=2026-03-02T12:00:00Z&createdBefore=2026-03-02T12:00:00Z'),
        ['t4'],
        'an instant, inclusive at both ends',
      );
      t.same(await names('createdAfter=2026-03-02T12:00:00.001Z'), [...tie, 't6', 't5']);
      t.same(
        await names(`createdBefore=${encodeURIComponent('2026-03-02T14:00:00+02:00')}`),
        ['t4', 't3', 't2', 't1'],
        'an offset',
      );
      t.same(
        await names('createdBefore=2026-03-02T14:00:00+02:00'),
        ['t4', 't3', 't2', 't1'],
        'an unescaped "+" (a space on arrival) still reads as an offset',
      );
      const inverted = await list('createdAfter=2026-03-03&createdBefore=2026-03-02');
      t.equal(inverted.status, 400);
      t.equal(inverted.body.error.message, 'createdAfter (2026-03-03) is later than createdBefore (2026-03-02)');
      for (const bad of ['createdAfter=2026-02-30', 'createdBefore=yesterday', 'createdAfter=2026-03-02T12']) {
        const res = await list(bad);
        t.equal(res.status, 400, bad);
        t.match(
          res.body.error,
          { code: 'invalid_request', message: /must be a date \(YYYY-MM-DD\) or an ISO 8601 timestamp/ },
          bad,
        );
      }
      t.same(await names('createdAfter=2026-03-02T12:00:00&createdBefore=2026-03-02T12:00:00'), ['t4'], 'no zone: UTC');
    },
  );

  t.test('source: api (default), panel, all; anything else 400', async (t) => {
    t.same(await names('source=api'), apiNewestFirst);
    t.same(await names('source=panel'), ['t7']);
    t.same(await names('source=all'), [...tie, 't7', 't6', 't5', 't4', 't3', 't2', 't1']);
    const res = await list('source=app');
    t.equal(res.status, 400);
    t.equal(res.body.error.message, 'source must be one of api, panel, all; got "app"');
  });

  t.test(
    'domain: host or address, www ignored, subdomains in, lookalikes and content audits out, invalid 400',
    async (t) => {
      const exampleCom = [...tie.filter((n) => n === 't8'), 't3', 't2', 't1'];
      t.same(
        await names('domain=example.com'),
        exampleCom,
        'example.com, www.example.com, blog. and shop. subdomains; not notexample.com or example.com.evil.org',
      );
      t.same(await names('domain=www.example.com'), exampleCom);
      t.same(
        await names(`domain=${encodeURIComponent('https://WWW.Example.com/some/page?x=1')}`),
        exampleCom,
        'a full address: its host',
      );
      t.same(await names('domain=blog.example.com'), ['t3'], 'a subdomain: only it');
      t.same(await names('domain=notexample.com'), ['t4']);
      t.same(await names('domain=evil.org'), ['t5'], 'example.com.evil.org is a subdomain of evil.org');
      t.same(await names('domain=example.com&source=all'), [...tie.filter((n) => n === 't8'), 't7', 't3', 't2', 't1']);
      t.same(await names('domain=xample.com'), [], 'a suffix that is not a whole label does not match');
      for (const bad of ['exa%20mple.com', 'http%3A%2F%2F', '-x.com', 'a..b']) {
        const res = await list(`domain=${bad}`);
        t.equal(res.status, 400, bad);
        t.match(res.body.error, {
          code: 'invalid_request',
          message: /^domain must be a host name such as example\.com/,
        });
      }
      for (const suffix of ['com', 'org', 'co.uk']) {
        const res = await list(`domain=${suffix}`);
        t.equal(res.status, 400, `domain=${suffix} would match every audit under .${suffix}`);
        t.match(res.body.error, { code: 'invalid_request', message: /is a top-level domain or public suffix/ });
      }
    },
  );

  t.test('status= (empty) is a 400, unlike the other empty filters', async (t) => {
    const res = await list('status=');
    t.equal(res.status, 400);
    t.equal(res.body.error.message, 'status must be one of queued, running, completed, error; got ""');
    t.same(await names('source=&domain=&createdAfter='), apiNewestFirst, 'other empty filters are no filter');
  });

  t.test("filters combine; another account's audits never appear", async (t) => {
    t.same(await names('project=Acme&domain=example.com&source=all&status=error'), ['t7']);
    t.same(await names('source=all&createdAfter=2026-03-02&createdBefore=2026-03-02'), ['t4', 't3']);
    const bList = await list('source=all', b.apiKey);
    t.same(
      bList.body.data.map((r: { auditId: string }) => r.auditId),
      [theirs.auditId],
    );
    const all = await list('source=all&limit=100');
    t.notOk(all.body.data.some((r: { auditId: string }) => r.auditId === theirs.auditId));
  });
});
