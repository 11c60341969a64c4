import t from 'tap';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureChromium } from '../../../infra/local/chromium.ts';
import { servePages } from '../../helpers/pageServer.ts';
import { bearer, fixture, pathOf, startShareService } from './fixtures/shareService.ts';

/** A fixture in Markdown as a plain HTML page, for the local competitor pages. */
const asPage = (md: string) =>
  `<!doctype html><html><head><title>${/^# (.+)$/m.exec(md)?.[1] ?? 'Page'}</title></head><body><article>${md
    .split(/\n{2,}/)
    .map((b) =>
      /^#{1,6} /.test(b) ? `<h${b.indexOf(' ')}>${b.replace(/^#+ /, '')}</h${b.indexOf(' ')}>` : `<p>${b}</p>`,
    )
    .join('\n')}</article></body></html>`;

/** Every trick to get markup or script out of the audited text into the report. */
const HOSTILE = `# Descale an espresso machine <script>window.__pwned = 'h1'</script>

Descale espresso machine every month. <img src=x onerror="window.__pwned='img'"> Scale builds up in the boiler <svg onload="window.__pwned='svg'"></svg> and the pump.

</style><script>window.__pwned = 'style-breakout'</script><style>

Read [the manual](javascript:window.__pwned='link') and "quoted" 'text' & more <a href="javascript:window.__pwned='a'" onclick="window.__pwned='click'">click</a> before you descale the espresso machine.

## Step 1 <iframe src="javascript:window.__pwned='iframe'"></iframe>

Mix citric acid with water, fill the tank, run the solution through the group head and the steam wand, then rinse twice with clean water.
`;

const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

t.test('the report page in a real browser', async (t) => {
  const executablePath = await ensureChromium();
  const web = await servePages(t, {
    '/comp-en-1': { body: asPage(fixture('serp/comp-descale-1.md')) },
    '/comp-en-2': { body: asPage(fixture('serp/comp-descale-2.md')) },
    '/comp-en-3': { body: asPage(fixture('serp/comp-descale-3.md')) },
    '/offtopic-en': { body: asPage(fixture('serp/comp-offtopic-espresso-testing.md')) },
    '/comp-pl-1': { body: asPage(fixture('strong/pl-howto-zakwas.md')) },
    '/offtopic-pl': { body: asPage(fixture('strong/pl-listicle-rosliny.md')) },
  });
  const dir = await mkdtemp(join(tmpdir(), 'share-serp-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const serpFile = join(dir, 'serp.json');
  const organic = (paths: string[], domains: string[]) =>
    paths.map((p, i) => ({ url: `${web.base}${p}`, title: `Result ${i + 1} ${domains[i]}` }));
  await writeFile(
    serpFile,
    JSON.stringify({
      'descale espresso machine': {
        searchVolume: 5400,
        serpOrganicCount: 4,
        organic: organic(['/comp-en-1', '/comp-en-2', '/offtopic-en', '/comp-en-3'], ['a', 'b', 'c', 'd']),
        paa: ['How often should you descale an espresso machine?', 'Can I use vinegar to descale an espresso machine?'],
        related: ['espresso machine descaler', 'citric acid descaling'],
      },
      'zakwas na chleb': {
        searchVolume: 9900,
        serpOrganicCount: 2,
        organic: organic(['/comp-pl-1', '/offtopic-pl'], ['a', 'b']),
        paa: ['Jak długo robi się zakwas na chleb?', 'Czym dokarmiać zakwas?'],
        related: ['zakwas żytni', 'chleb na zakwasie przepis'],
      },
    }),
  );
  const svc = await startShareService(t, {
    kind: 'store',
    scheduler: false,
    env: { SERP_PROVIDER: 'file', SERP_FILE: serpFile },
  });
  const owner = await svc.account();
  const key = owner.apiKey;
  const submitShared = async (body: Record<string, unknown>) => {
    const job = await svc.submit(key, { ...body, share: true });
    return svc.finished(key, owner.accountId, job.auditId, job.id);
  };
  const en = await submitShared({
    content: fixture('weak/en-howto-descale.md'),
    keyword: 'descale espresso machine',
    project: 'Client: Brew & Co',
  });
  const pl = await submitShared({
    content: fixture('weak/pl-howto-zakwas.md'),
    keyword: 'zakwas na chleb',
    project: 'Piekarnia Żytnia',
  });
  const hostile = await submitShared({
    content: HOSTILE,
    keyword: 'descale espresso machine',
    project: '<script>window.__pwned="project"</script>',
  });
  for (const r of [en, pl, hostile]) t.equal(r.status, 'completed', `audit ${r.id} completed`);

  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  const address = svc.app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  const browser: Browser = await chromium.launch({
    executablePath,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  t.teardown(() => browser.close());

  /** Opens a page and collects everything that would betray a broken or hijacked page. */
  const open = async (path: string, o: { print?: boolean } = {}) => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'en-GB' });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    if (o.print) await page.emulateMedia({ media: 'print' });
    const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
    return { page, response: response!, problems };
  };
  const axeScan = async (page: Page) => {
    // Through the debugging protocol: the page's CSP rightly refuses any script tag, axe's too.
    await page.evaluate(axe.source);
    const result = await page.evaluate(async () =>
      (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }),
    );
    return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[]).filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
  };

  for (const [lang, result, heading] of [
    ['en', en, 'Content quality report'],
    ['pl', pl, 'Raport jakości treści'],
  ] as const) {
    await t.test(
      `${lang}: renders, shows the scores, no console error, no serious or critical axe violation`,
      async (t) => {
        const { page, response, problems } = await open(pathOf(result.meta.shareUrl));
        t.equal(response.status(), 200);
        const headers = response.headers();
        t.match(headers['content-security-policy'], /script-src 'none'/, 'CSP allows no script');
        t.equal(headers['x-robots-tag'], 'noindex, nofollow');
        t.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex, nofollow');
        t.equal(await page.getAttribute('html', 'lang'), lang);
        t.equal(await page.textContent('h1'), heading);
        t.equal((await page.textContent('.gauge-value'))?.trim(), String(result.scores.cqs), 'the gauge shows the CQS');
        t.equal(await page.locator('svg.bars').first().locator('g').count(), 10, 'ten dimensions in the chart');
        const text = await page.textContent('main');
        for (const d of result.dimensions) t.ok(text!.includes(d.summary), `dimension ${d.id} is there`);
        for (const r of result.recommendations) t.ok(text!.includes(r.title), `recommendation ${r.id} is there`);
        t.ok((await page.locator('.before-after').count()) >= 1, 'BEFORE/AFTER side by side');
        t.ok(result.summary.top10AvgCqs !== null, 'a benchmark with top10AvgCqs');
        for (const c of result.benchmark.competitors) t.ok(text!.includes(c.domain), `competitor ${c.domain} listed`);
        t.ok(text!.includes(result.csi.centralEntity), 'the CSI');
        t.ok(
          (await page.textContent('body'))!.includes(result.summary.profile.label),
          "the content type in the content's language",
        );
        t.same(await axeScan(page), [], 'axe: no serious or critical violation');
        t.same(problems, [], 'no console error');
        if (UPDATE_SCREENSHOTS) {
          await mkdir('docs/screenshots', { recursive: true });
          // The first screen and a half: summary card, CSI and the dimensions chart.
          await page.screenshot({
            path: `docs/screenshots/report-${lang}.png`,
            fullPage: true,
            clip: { x: 0, y: 0, width: 1200, height: 1750 },
          });
        }
        const printed = await open(pathOf(result.meta.shareUrl), { print: true });
        t.ok((await printed.page.pdf({ format: 'A4' })).length > 10_000, 'prints to PDF (print stylesheet)');
      },
    );
  }

  await t.test('a hostile article runs no script and is shown as text', async (t) => {
    const { page, response, problems } = await open(pathOf(hostile.meta.shareUrl));
    t.equal(response.status(), 200);
    t.equal(await page.evaluate(() => (globalThis as any).__pwned), undefined, 'nothing ran');
    t.equal(await page.locator('script').count(), 0, 'no script element');
    t.equal(await page.locator('iframe, img, object, embed').count(), 0, 'no injected element');
    const handlers = await page.evaluate(() =>
      [...(globalThis as any).document.querySelectorAll('*')].flatMap((el: any) =>
        [...el.attributes].filter((a: any) => a.name.startsWith('on')).map((a: any) => a.name as string),
      ),
    );
    t.same(handlers, [], 'no event handler attribute');
    t.equal(await page.locator('a[href^="javascript:" i]').count(), 0, 'no javascript: link');
    const text = (await page.textContent('body'))!;
    t.ok(text.includes('<script>window.__pwned="project"</script>'), 'the hostile project name is shown as text');
    t.same(problems, [], 'no console error (nothing was even attempted)');
  });

  await t.test('unknown, malformed and revoked links give the same 404 page', async (t) => {
    const revoke = await svc.app.inject({
      method: 'DELETE',
      url: `/api/v1/audits/${en.id}/share`,
      headers: bearer(key),
    });
    t.equal(revoke.statusCode, 200);
    const pages = [];
    for (const path of [pathOf(en.meta.shareUrl), `/share/${'A'.repeat(32)}?lang=en`, '/share/short?lang=en']) {
      const { page, response, problems } = await open(path);
      pages.push({ status: response.status(), body: await page.content() });
      t.same(
        problems.filter((p) => !/status of 404/.test(p)),
        [],
        'no console error but the 404 of the page itself',
      );
      if (path === pathOf(en.meta.shareUrl)) t.same(await axeScan(page), [], 'axe on the 404 page');
    }
    t.same(
      pages.map((p) => p.status),
      [404, 404, 404],
    );
    t.equal(new Set(pages.map((p) => p.body)).size, 1, 'byte for byte the same page');
  });

  await t.test('reportUrl: sign in with an API key, see the report, sign out', async (t) => {
    const reportPath = new URL(pl.meta.reportUrl).pathname;
    const { page, problems } = await open(reportPath);
    t.match(page.url(), /\/app\/login\?next=/, 'signed out: sent to the sign-in page');
    t.same(await axeScan(page), [], 'axe on the sign-in page');
    await page.fill('#apiKey', 'ask_wrong');
    await page.click('button[type=submit]');
    t.match(await page.textContent('.error'), /unknown, revoked/);
    await page.fill('#apiKey', key);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}${reportPath}`);
    t.equal(await page.textContent('h1'), 'Raport jakości treści', 'the owner sees the report');
    t.ok((await page.textContent('.owner'))!.includes(owner.email ?? ''), 'signed in as the owner');
    const [cookie] = await page.context().cookies();
    t.match(cookie, { name: 'audit_session', httpOnly: true, sameSite: 'Lax', path: '/app' });
    t.equal(cookie!.secure, true, 'Secure: PUBLIC_BASE_URL is https');
    await page.click('.owner button');
    await page.waitForURL(/\/app\/login/);
    t.same(
      (await page.context().cookies()).map((c) => c.name),
      ['audit_login'],
      "the session cookie is gone; only the sign-in page's pre-session cookie (login CSRF) is left",
    );
    await page.goto(`${base}${reportPath}`);
    t.match(page.url(), /\/app\/login/, 'signed out for good');
    t.same(
      problems.filter((p) => !/status of 401/.test(p)),
      [],
      'no console error but the 401 of the refused sign-in itself',
    );
  });
});
