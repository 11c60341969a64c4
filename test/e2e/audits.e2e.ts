import t from 'tap';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { createAccount } from '../../services/admin/operations.ts';
import { AuditResultV1Schema } from '../../services/engine/resultSchema.ts';
import { eventually, testDatabase } from '../helpers/db.ts';
import { servePages } from '../helpers/pageServer.ts';
import { startService } from '../helpers/service.ts';

/**
 * Audits end to end through the HTTP API, on real Kafka and PostgreSQL (`npm start` with
 * KAFKA_BROKERS and DATABASE_URL), with a SERP file whose competitors are pages of a local server:
 * the result is the full AuditResultV1 with its benchmark.
 */
const fixtures = new URL('../fixtures/engine/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, fixtures), 'utf8');
/** A Markdown fixture as a plain page: headings and paragraphs. */
const asPage = (md: string) =>
  `<!doctype html><html><head><title>${/^# (.+)$/m.exec(md)?.[1] ?? 'Page'}</title></head><body><article>${md
    .split(/\n{2,}/)
    .map((b) =>
      /^#{1,6} /.test(b) ? `<h${b.indexOf(' ')}>${b.replace(/^#+ /, '')}</h${b.indexOf(' ')}>` : `<p>${b}</p>`,
    )
    .join('\n')}</article></body></html>`;
const check = TypeCompiler.Compile(AuditResultV1Schema);

t.test(
  'URL and content audits through the API on Kafka, with a SERP benchmark of local competitor pages',
  async (t) => {
    const db = await testDatabase(t);
    const web = await servePages(t, {
      '/article': { body: asPage(read('strong/en-howto-descale.md')) },
      '/comp-1': { body: asPage(read('serp/comp-descale-1.md')) },
      '/comp-2': { body: asPage(read('serp/comp-descale-2.md')) },
      '/comp-3': { body: asPage(read('serp/comp-descale-3.md')) },
      '/offtopic': { body: asPage(read('serp/comp-offtopic-espresso-testing.md')) },
    });
    const dir = await mkdtemp(join(tmpdir(), 'audit-serp-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const serpFile = join(dir, 'serp.json');
    await writeFile(
      serpFile,
      JSON.stringify({
        'Descale Espresso Machine': {
          searchVolume: 5400,
          serpOrganicCount: 4,
          organic: ['/comp-1', '/comp-2', '/offtopic', '/comp-3'].map((p, i) => ({
            url: `${web.base}${p}`,
            title: `Result ${i + 1}`,
          })),
          paa: ['How often should you descale an espresso machine?'],
          related: ['descaling solution'],
        },
      }),
    );
    const account = await createAccount(db.pool, { email: 'e2e-audits@example.com', credits: 5 });
    const { base } = await startService(t, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      KAFKA_TOPIC_PREFIX: `e2e${randomBytes(3).toString('hex')}`,
      ALLOW_PRIVATE_ADDRESSES: '1',
      SERP_PROVIDER: 'file',
      SERP_FILE: serpFile,
      PUBLIC_BASE_URL: 'https://audits.example',
    });
    t.match((await (await fetch(`${base}/readyz`)).json()) as object, { checks: { kafka: { ok: true } } });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${account.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const poll = async (id: string) => {
      let last: any;
      await eventually(
        async () => ['completed', 'error'].includes((last = (await call('GET', `/audits/${id}`)).body).status),
        180_000,
        `job ${id}`,
      );
      return last;
    };

    const byUrl = await call('POST', '/audits', {
      url: `${web.base}/article`,
      keyword: 'descale espresso machine',
      project: 'Coffee',
    });
    t.equal(byUrl.status, 202);
    t.match(byUrl.body, { id: /^job_/, status: 'queued' });
    const byContent = await call('POST', '/audits', {
      content: read('strong/en-howto-descale.md'),
      keyword: 'descale espresso machine',
    });
    const missing = await call('POST', '/audits', { url: `${web.base}/gone`, keyword: 'descale espresso machine' });

    const url = await poll(byUrl.body.id);
    t.equal(url.status, 'completed');
    t.ok(
      check.Check(url),
      `the URL audit is a valid AuditResultV1${check.Check(url) ? '' : `: ${JSON.stringify([...check.Errors(url)][0])}`}`,
    );
    t.match(url, {
      id: byUrl.body.id,
      input: { url: `${web.base}/article`, keyword: 'descale espresso machine', project: 'Coffee' },
      meta: { creditsCharged: 1, apiVersion: 'v1.4' },
    });
    t.equal(url.scores.aiCitability, null);
    t.match(url.benchmark, {
      keyword: 'descale espresso machine',
      searchVolume: 5400,
      serpOrganicCount: 4,
      paa: ['How often should you descale an espresso machine?'],
      related: ['descaling solution'],
    });
    t.type(url.summary.top10AvgCqs, 'number', 'top10AvgCqs from the scored competitors');
    const competitorUrls = url.recommendations.flatMap((r: any) => r.competitorUrls.map((c: any) => c.url));
    t.ok(
      competitorUrls.every((u: string) => u.startsWith(web.base)),
      'competitor URLs come from the benchmark',
    );
    t.notOk(
      competitorUrls.includes(`${web.base}/offtopic`),
      'the page about another referent is not offered as a model',
    );
    t.ok((web.hits.get('/comp-1') ?? 0) >= 1 && (web.hits.get('/comp-3') ?? 0) >= 1, 'the competitors were crawled');

    const content = await poll(byContent.body.id);
    t.equal(content.status, 'completed');
    t.ok(check.Check(content), 'the content audit is a valid AuditResultV1');
    t.equal(content.input.url, null, 'no URL for supplied content');

    const failed = await poll(missing.body.id);
    t.match(failed, { id: missing.body.id, status: 'error', errorCode: 'crawl_failed', errorMessage: /404/ });

    const usage = await call('GET', '/credits/usage');
    await eventually(
      async () => (await call('GET', '/credits/usage')).body.remaining === 3,
      30_000,
      'the ledger to show two charges',
    );
    t.equal(usage.status, 200);
  },
);
