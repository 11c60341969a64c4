import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../../services/admin/operations.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';
import { apiClient, article, bulkSite, checkLedger, serviceEnv, waitForBatch } from './fixtures.ts';

/**
 * Bulk batches end to end on real Kafka and PostgreSQL (`npm start`), against a local site of 100
 * pages: validation, 402, a 100-entry batch with 404s, duplicates, a slow page and a PDF (counts,
 * charges and refunds exact, the ledger checked), 409 while it runs, Idempotency-Key, cancel
 * mid-batch, and another account's batch.
 */
t.test('bulk batches through the API', async (t) => {
  const db = await testDatabase(t);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const site = await bulkSite(t, 89, { '/held': { body: article(1).page.body, hold: held } });
  const dir = await mkdtemp(join(tmpdir(), 'bulk-serp-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serpFile = join(dir, 'serp.json');
  await writeFile(
    serpFile,
    JSON.stringify({
      'descale espresso machine': { searchVolume: 5400, serpOrganicCount: 0, organic: [], paa: [], related: [] },
    }),
  );
  const { base } = await startService(t, serviceEnv(db.url, { SERP_PROVIDER: 'file', SERP_FILE: serpFile }), 240_000);
  const a = await createAccount(db.pool, { email: 'bulk-a@example.com', credits: 200 });
  const b = await createAccount(db.pool, { email: 'bulk-b@example.com', credits: 3 });
  const c = await createAccount(db.pool, { email: 'bulk-c@example.com', credits: 50 });
  const apiA = apiClient(base, a.apiKey);
  const apiB = apiClient(base, b.apiKey);
  const apiC = apiClient(base, c.apiKey);
  const u = (p: string) => `${site.base}${p}`;

  await t.test('validation: the whole batch refused with the spec messages, nothing charged or started', async (t) => {
    const cases: [unknown, string][] = [
      [{}, 'urls must be a non-empty array'],
      [{ urls: [] }, 'urls must be a non-empty array'],
      [{ urls: 'https://example.com' }, 'urls must be a non-empty array'],
      [{ urls: Array.from({ length: 101 }, (_, i) => u(`/p/${i}`)) }, 'Too many URLs (max 100 per request)'],
      [{ urls: [u('/p/0'), { keyword: 'x' }] }, 'each item needs a string url'],
      [{ urls: [u('/p/0'), { url: 5 }] }, 'each item needs a string url'],
      [{ urls: [u('/p/0'), 42] }, 'each item must be a string or an object with a url'],
      [{ urls: [u('/p/0'), null] }, 'each item must be a string or an object with a url'],
      [{ urls: [u('/p/0'), ['x']] }, 'each item must be a string or an object with a url'],
    ];
    for (const [body, message] of cases) {
      const r = await apiA('POST', '/audits/bulk', body);
      t.equal(r.status, 400, message);
      t.match(r.body, { error: { code: 'invalid_request', message, requestId: String } });
    }
    const bad = [
      'not a url',
      'ftp://example.com/x',
      'http://',
      'javascript:alert(1)',
      'mailto:a@b.c',
      'https://exa mple.com',
      '//nohost',
    ];
    const r = await apiA('POST', '/audits/bulk', {
      urls: [u('/p/0'), ...bad, { url: u('/p/1'), keyword: 'k'.repeat(201) }],
    });
    t.equal(r.status, 400);
    t.equal(r.body.error.message, `Invalid URLs in the list (${bad.length + 1})`, 'n counts every rejected entry');
    t.equal(r.body.error.invalidUrls.length, 5, 'invalidUrls holds the first 5');
    t.same(
      r.body.error.invalidUrls.map((e: any) => e.url),
      bad.slice(0, 5),
    );
    t.ok(
      r.body.error.invalidUrls.every((e: any) => typeof e.error === 'string' && e.error.length > 0),
      'each with its reason',
    );
    t.equal(
      (await apiA('POST', '/audits/bulk', { urls: [u('/p/0')], project: 5 })).status,
      400,
      'project must be a string',
    );
    t.equal(
      (await apiA('POST', '/audits/bulk', { urls: [u('/p/0')], webhookUrl: 'http://example.com/hook' })).status,
      400,
      'webhookUrl must be https',
    );
    t.equal((await apiA('POST', '/audits/bulk', { urls: [u('/p/0')], extra: 1 })).status, 400, 'unknown field');
    await checkLedger(t, db.pool, apiA, a.accountId, 200);
    const bulks = await db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'BulkSubmitted'`);
    t.equal(bulks.rows[0].n, 0, 'no batch was started');
  });

  await t.test('402 before anything is fetched when the balance cannot cover the batch', async (t) => {
    const before = site.hits.get('/p/10') ?? 0;
    const r = await apiB('POST', '/audits/bulk', { urls: [10, 11, 12, 13].map((i) => u(`/p/${i}`)) });
    t.equal(r.status, 402);
    t.match(r.body, { error: { code: 'insufficient_credits', message: /needs 4, the balance is 3/ } });
    t.equal(site.hits.get('/p/10') ?? 0, before, 'nothing fetched');
    await checkLedger(t, db.pool, apiB, b.accountId, 3);
  });

  await t.test(
    'a batch of 100 entries: duplicates removed, 404s and the PDF not charged, counts and ledger exact',
    async (t) => {
      const urls: unknown[] = [];
      for (let i = 0; i < 89; i++)
        urls.push(i % 3 === 0 ? u(`/p/${i}`) : { url: u(`/p/${i}`), keyword: article(i).keyword });
      urls.push(u('/missing-1'), u('/missing-2'), { url: u('/missing-3') }, u('/slow'), u('/file.pdf'));
      // Five duplicates, one spelled differently (the normalised address is the same page).
      urls.push(u('/p/1'), u('/p/2'), { url: u('/p/3'), keyword: 'other' }, u('/p/4'), `${site.base}/p/./5`);
      t.equal(urls.length, 99);
      urls.push(u('/p/6'));
      const unique = 94;
      const started = Date.now();
      const first = await apiA(
        'POST',
        '/audits/bulk',
        { urls, project: 'Batch A' },
        { 'idempotency-key': 'batch-a-1' },
      );
      t.equal(first.status, 202);
      t.match(first.body, { id: /^bulk_/, status: 'queued', urlCount: unique, project: 'Batch A', apiVersion: 'v1.4' });
      const id = first.body.id;

      const again = await apiA(
        'POST',
        '/audits/bulk',
        { urls: [u('/p/0')], project: 'changed' },
        { 'idempotency-key': 'batch-a-1' },
      );
      t.equal(again.status, 200, 'a retry with the same key answers 200');
      t.match(again.body, { id, urlCount: unique, project: 'Batch A' }, 'the first request binds');

      const second = await apiA('POST', '/audits/bulk', { urls: [u('/p/0')] });
      t.equal(second.status, 409);
      t.match(second.body, {
        error: { code: 'bulk_in_progress', blockingBulkId: id, blockingStatus: /^(queued|running)$/ },
      });

      const running = await waitForBatch(t, apiA, id, (x) => x.counts.completed >= 3);
      const listed = await apiA('GET', `/audits?bulkId=${id}&limit=100`);
      t.ok(listed.body.total >= 3, 'started entries are jobs listed with bulkId=');
      t.ok(listed.body.data.every((j: any) => j.bulkId === id && /^job_/.test(j.id)));
      t.equal((await apiB('GET', `/audits?bulkId=${id}`)).body.total, 0, "another account's bulkId lists nothing");
      t.equal((await apiB('GET', `/audits/bulk/${id}`)).status, 404, "another account's batch is 404");
      t.equal((await apiB('POST', `/audits/bulk/${id}/cancel`)).status, 404, 'another account cannot cancel it');
      t.ok(running.entries.filter((e: any) => e.status === 'running').length <= 1, 'one entry at a time');

      // Generous: the machine is shared; the bench measures the speed.
      const done = await waitForBatch(t, apiA, id, undefined, 900_000);
      const seconds = (Date.now() - started) / 1000;
      t.comment(`100 URLs (${unique} unique) from POST to completed in ${seconds.toFixed(1)} s`);
      t.equal(done.status, 'completed');
      t.equal(done.progress, 100);
      t.equal(done.entries.length, unique);
      const failedUrls = done.entries
        .filter((e: any) => e.status === 'error')
        .map((e: any) => new URL(e.url).pathname)
        .sort();
      t.same(failedUrls, ['/file.pdf', '/missing-1', '/missing-2', '/missing-3'], 'the unreachable addresses failed');
      t.match(done.counts, { total: unique, completed: unique - 4, failed: 4, pending: 0, skipped: 0 });
      t.equal(done.creditsCharged, unique - 4, '1 credit per address fetched and audited');
      t.ok(
        done.entries
          .filter((e: any) => e.status === 'completed')
          .every(
            (e: any) =>
              typeof e.cqs === 'number' && /^job_/.test(e.jobId) && /^aud_/.test(e.auditId) && e.aiCitability === null,
          ),
      );
      t.match(
        done.entries.find((e: any) => e.url.endsWith('/file.pdf')),
        { error: /crawl_failed: .*not HTML/ },
      );
      t.equal(
        done.entries.find((e: any) => e.url.endsWith('/p/3')).keyword,
        article(3).keyword,
        'the first of two duplicates is kept',
      );
      t.equal(site.hits.get('/p/1'), 1, 'a duplicate is fetched once');
      const job = await apiA('GET', `/audits/${done.entries[1].jobId}`);
      t.match(
        job.body,
        { status: 'completed', input: { project: 'Batch A' }, meta: { creditsCharged: 1 } },
        'an entry is an ordinary job',
      );
      const ledger = await checkLedger(t, db.pool, apiA, a.accountId, 200 - (unique - 4));
      t.equal(ledger.charges, unique, 'one credit reserved per entry');
      t.equal(ledger.refunds, 4, 'the four unreachable addresses refunded');
      const kw = await db.pool.query(
        `SELECT payload FROM events WHERE stream_id = $1 AND type = 'BulkKeywordDataFetched'`,
        [`bulk-${id}`],
      );
      t.equal(kw.rows.length, 1, 'keyword data fetched once for the batch');
      const volumes = new Map<string, number | null>(
        kw.rows[0].payload.volumes.map((v: any) => [v.keyword, v.searchVolume]),
      );
      t.equal(volumes.size, 5, "one figure per keyword given in the batch (duplicates' keywords dropped with them)");
      t.equal(volumes.get('descale espresso machine'), 5400, 'from the SERP file');
      t.equal(volumes.get('heat pump comparison'), null, 'null where the provider has no figure');
      t.equal((await apiA('POST', `/audits/bulk/${id}/cancel`)).body.error?.code, 'already_finished');
      t.equal(
        (await apiA('POST', '/audits/bulk', { urls: [u('/p/0')] })).status,
        202,
        'the account is free for a new batch',
      );
    },
  );

  await t.test(
    'cancel mid-batch: the running audit stops, entries that never started are skipped and refunded',
    async (t) => {
      const urls = [u('/p/20'), u('/p/21'), u('/held'), ...Array.from({ length: 17 }, (_, i) => u(`/p/${30 + i}`))];
      const r = await apiC('POST', '/audits/bulk', { urls });
      t.equal(r.status, 202);
      const id = r.body.id;
      await waitForBatch(t, apiC, id, (x) => x.entries[2].status === 'running');
      await eventually(async () => (site.hits.get('/held') ?? 0) > 0, 30_000, 'the held page to be requested');
      const cancelled = await apiC('POST', `/audits/bulk/${id}/cancel`);
      release();
      t.equal(cancelled.status, 200);
      t.match(cancelled.body, {
        id,
        status: 'cancelled',
        creditsRefunded: 18,
        counts: { total: 20, completed: 2, failed: 1, pending: 0, skipped: 17 },
        creditsCharged: 2,
      });
      t.match(cancelled.body.entries[2], { status: 'error', error: /cancelled/ });
      t.ok(cancelled.body.entries.slice(3).every((e: any) => e.status === 'skipped' && e.jobId === null));
      let stopped: any;
      await eventually(
        async () =>
          ['completed', 'error'].includes(
            (stopped = (await apiC('GET', `/audits/${cancelled.body.entries[2].jobId}`)).body).status,
          ),
        30_000,
        'the read model to show the stopped job',
      );
      t.match(
        stopped,
        { status: 'error', errorCode: 'audit_failed', errorMessage: /cancelled/ },
        'the running job ended',
      );
      t.equal((await apiC('POST', `/audits/bulk/${id}/cancel`)).body.error.code, 'already_finished');
      await checkLedger(t, db.pool, apiC, c.accountId, 48);
      // The stopped audit's worker finishes its fetch later; nothing changes.
      await new Promise((r) => setTimeout(r, 1500));
      t.match((await apiC('GET', `/audits/bulk/${id}`)).body, { status: 'cancelled', creditsCharged: 2 });
      await checkLedger(t, db.pool, apiC, c.accountId, 48);
      t.equal((await apiC('POST', '/audits/bulk', { urls: [u('/p/0')] })).status, 202, 'the account is unblocked');
    },
  );
});
