import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditStreamId } from '../../../events/audit/events.ts';
import { getContent } from '../../../infra/eventStore/contentStore.ts';
import { loadStream } from '../../../infra/eventStore/eventStore.ts';
import { auditDecider } from '../../../services/domain/audit/decider.ts';
import { auditContent } from '../../../services/engine/audit.ts';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';
import { eventually } from '../../helpers/db.ts';
import { servePages } from '../../helpers/pageServer.ts';
import { bearer, fixture, startShareService } from '../share/fixtures/shareService.ts';
import { applyRole, ledgerTrue } from './fixtures.ts';

const asPage = (md: string) =>
  `<!doctype html><html><head><title>${/^# (.+)$/m.exec(md)?.[1] ?? 'Page'}</title></head><body><article>${md
    .split(/\n{2,}/)
    .map((b) => (/^#{1,6} /.test(b) ? `<h2>${b.replace(/^#+ /, '')}</h2>` : `<p>${b}</p>`))
    .join('\n')}</article></body></html>`;

/**
 * Spec 2.6: the measurement re-scores the new text against the same SERP baseline the audit used.
 * The whole pipeline runs with a SERP file and local competitor pages; the auditor keeps the
 * benchmark input at completion and the measurement completes against it.
 */
t.test('an audit with a SERP benchmark is measured against its kept baseline', async (t) => {
  const web = await servePages(t, {
    '/c1': { body: asPage(fixture('serp/comp-descale-1.md')) },
    '/c2': { body: asPage(fixture('serp/comp-descale-2.md')) },
    '/c3': { body: asPage(fixture('serp/comp-descale-3.md')) },
  });
  const dir = await mkdtemp(join(tmpdir(), 'apply-serp-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serpFile = join(dir, 'serp.json');
  await writeFile(
    serpFile,
    JSON.stringify({
      'descale espresso machine': {
        searchVolume: 5400,
        serpOrganicCount: 3,
        organic: ['/c1', '/c2', '/c3'].map((p, i) => ({ url: `${web.base}${p}`, title: `Result ${i + 1}` })),
        paa: ['How often should you descale an espresso machine?'],
        related: ['espresso machine descaler'],
      },
    }),
  );
  const svc = await startShareService(t, {
    kind: 'store',
    scheduler: false,
    rateLimits: { apply: 1000 },
    env: { SERP_PROVIDER: 'file', SERP_FILE: serpFile },
  });
  applyRole(t, svc.pool);
  const owner = await svc.account(5);
  const job = await svc.submit(owner.apiKey, {
    content: fixture('weak/en-howto-descale.md'),
    keyword: 'descale espresso machine',
  });
  const audit = await svc.finished(owner.apiKey, owner.accountId, job.auditId, job.id);
  t.equal(audit.status, 'completed');
  t.ok(audit.benchmark?.competitors?.length > 0, 'the audit had a SERP benchmark');

  const { state } = await loadStream(svc.pool, auditDecider, auditStreamId(job.auditId));
  const benchmarkRef = state.status === 'completed' ? state.benchmarkRef : null;
  t.ok(benchmarkRef, 'AuditCompleted names the kept baseline');
  const baseline = JSON.parse((await getContent(svc.pool, benchmarkRef!))!) as SerpBenchmarkInput;
  t.same(
    baseline.competitors.map((c) => c.url).sort(),
    [`${web.base}/c1`, `${web.base}/c2`, `${web.base}/c3`],
    'the competitor pages as fetched',
  );
  t.same(baseline.paa, ['How often should you descale an espresso machine?']);

  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    svc.app.inject({ method, url: `/api/v1${url}`, headers: bearer(owner.apiKey), ...(payload ? { payload } : {}) });
  const items = (await inject('GET', `/audits/${job.id}/apply/items`)).json().items as {
    id: string;
    selectable: boolean;
  }[];
  const selectedIds = items.filter((i) => i.selectable).map((i) => i.id);
  const started = await inject('POST', `/audits/${job.id}/apply`, { selectedIds });
  t.equal(started.statusCode, 202);
  const rev = started.json().revisionId as string;
  let body: any;
  await eventually(
    async () => {
      body = (await inject('GET', `/audits/${job.id}/apply/${rev}`)).json();
      return (
        body.status === 'failed' ||
        (body.status === 'completed' && body.measurement && body.measurement.status !== 'running')
      );
    },
    60_000,
    'the revision and its measurement',
  );
  t.equal(body.status, 'completed');
  t.equal(body.measurement.status, 'completed', 'measured, not error');
  t.equal(body.measurement.cqsBefore, audit.scores.cqs);
  // The same engine call on the stored text and the kept baseline gives the measured figure.
  const expected = auditContent({
    content: body.result.markdown,
    format: 'markdown',
    title: body.result.title,
    url: null,
    keyword: 'descale espresso machine',
    language: audit.input.language,
    benchmark: baseline,
  }).scores.cqs;
  t.equal(
    body.measurement.cqsAfter,
    expected,
    `cqsAfter ${body.measurement.cqsAfter} is the score against the kept baseline`,
  );
  t.equal(
    await ledgerTrue(t, svc.pool, owner.accountId),
    3,
    'audit and generation charged once each; the measurement is free',
  );
});
