import t from 'tap';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureChromium } from '../../../infra/local/chromium.ts';
import { labelsFor } from '../../../services/reports/labels.ts';
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
const run = async (cmd: string, args: string[]) => (await promisify(execFile)(cmd, args)).stdout;
const WIDTHS = [390, 768, 1280] as const;
// A4 less the print stylesheet's margins (12 mm each side, 12 + 14 mm top and bottom), in CSS px.
const A4_CONTENT_PX = Math.floor(((210 - 24) * 96) / 25.4);
const A4_CONTENT_HEIGHT_PX = Math.floor(((297 - 26) * 96) / 25.4);

/** In the page: what a reader at this width would trip over. */
const measure = () => {
  const doc = (globalThis as any).document;
  const smallText: string[] = [];
  for (const el of doc.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n: any) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.getClientRects().length === 0) continue;
    // SVG text is scaled with its drawing: its size on screen is the font size times that scale.
    const svg = el.closest('svg');
    const scale = svg?.viewBox?.baseVal?.width ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
    const px = parseFloat((globalThis as any).getComputedStyle(el).fontSize) * scale;
    if (px < 12) smallText.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}: ${px.toFixed(1)} px`);
  }
  const row = doc.querySelector('ul.bars li');
  const label = row.querySelector('.bar-label').getBoundingClientRect();
  const bar = row.querySelector('.bar').getBoundingClientRect();
  return {
    scrollWidth: doc.documentElement.scrollWidth as number,
    scrollHeight: doc.documentElement.scrollHeight as number,
    smallText,
    chartRows: doc.querySelectorAll('ul.bars')[0].querySelectorAll('li').length as number,
    labelAboveBar: bar.top >= label.bottom - 1,
  };
};

/** In the page, under print media: each box that must not be split across pages. */
const printBoxes = () =>
  [
    ...(globalThis as any).document.querySelectorAll(
      '.card:not(.long), .chart, .dimension, .rec, .stat, .summary-grid, .before-after, tr',
    ),
  ].map((el: any) => ({
    box: `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`,
    breakInside: (globalThis as any).getComputedStyle(el).breakInside as string,
    height: Math.ceil(el.getBoundingClientRect().height) as number,
  }));

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
  const open = async (path: string, o: { print?: boolean; width?: number } = {}) => {
    const context = await browser.newContext({ viewport: { width: o.width ?? 1200, height: 900 }, locale: 'en-GB' });
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
        t.equal(await page.locator('ul.bars').first().locator('li').count(), 10, 'ten dimensions in the chart');
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

  for (const [lang, result] of [
    ['en', en],
    ['pl', pl],
  ] as const) {
    await t.test(`${lang}: readable at 390, 768 and 1280 px, and printed to a clean PDF`, async (t) => {
      for (const width of WIDTHS) {
        const { page, problems } = await open(`${pathOf(result.meta.shareUrl)}#h-serp`, { width });
        const m = await page.evaluate(measure);
        t.equal(m.scrollWidth, width, `${width} px: no horizontal scroll`);
        t.same(m.smallText, [], `${width} px: no text under 12 CSS px`);
        t.equal(m.chartRows, 10, `${width} px: the ten dimensions in the chart`);
        if (width === 390) t.ok(m.labelAboveBar, '390 px: the chart puts each label above its bar');
        else t.notOk(m.labelAboveBar, `${width} px: the chart puts each label beside its bar`);
        t.same(await axeScan(page), [], `${width} px: axe clean`);
        t.same(problems, [], `${width} px: no console error`);
        // Opened at an #anchor as a shared link may be: the lowest section is still painted in a
        // full-page capture (a blank one compresses to a few KB).
        const shot = await page.screenshot({ fullPage: true });
        const bottom = await page.screenshot({
          fullPage: true,
          clip: { x: 0, y: m.scrollHeight - 700, width, height: 700 },
        });
        t.ok(bottom.length > 15_000, `${width} px: the bottom of a full-page capture is painted`);
        t.ok(shot.length > 100_000, `${width} px: a full-page capture`);
        // For the README: the first screens (header, summary, CSI, the chart), not all 8-15 of them.
        if (UPDATE_SCREENSHOTS)
          await page.screenshot({
            path: `docs/screenshots/report-${lang}-${width}.png`,
            clip: { x: 0, y: 0, width, height: Math.min(m.scrollHeight, 2400) },
            fullPage: true,
          });
      }

      const printed = await open(pathOf(result.meta.shareUrl), { print: true, width: A4_CONTENT_PX });
      const boxes = await printed.page.evaluate(printBoxes);
      t.ok(boxes.length > 20, 'the cards are there');
      t.same(
        boxes.filter((b) => b.breakInside !== 'avoid'),
        [],
        'print: every card, chart, dimension, recommendation and table row avoids a break inside',
      );
      t.same(
        boxes.filter((b) => b.height > A4_CONTENT_HEIGHT_PX),
        [],
        'print: each of them fits on a page, so the avoidance holds',
      );
      const pdf = await printed.page.pdf({ format: 'A4' });
      const dir = await mkdtemp(join(tmpdir(), 'report-pdf-'));
      t.teardown(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'report.pdf'), pdf);
      const pages = Number(/Pages:\s+(\d+)/.exec(await run('pdfinfo', [join(dir, 'report.pdf')]))![1]);
      t.ok(pages >= 2 && pages <= 14, `print: a sane page count (${pages})`);
      const first = (await run('pdftotext', ['-f', '1', '-l', '1', join(dir, 'report.pdf'), '-'])).replace(/\s+/g, ' ');
      const L = labelsFor(lang);
      for (const s of [L.summary, L.cqs, L.top10, L.topChange, String(result.scores.cqs)])
        t.ok(first.includes(s), `print: page one shows "${s}"`);
      const all = await run('pdftotext', [join(dir, 'report.pdf'), '-']);
      t.match(all, /\(http:\/\/127\.0\.0\.1:\d+\/comp-/, 'print: link targets are written out');
      if (UPDATE_SCREENSHOTS) {
        for (const n of [1, 2]) {
          const png = join(dir, `page-${n}`);
          await run('pdftoppm', [
            '-png',
            '-r',
            '60',
            '-f',
            `${n}`,
            '-l',
            `${n}`,
            '-singlefile',
            join(dir, 'report.pdf'),
            png,
          ]);
          await writeFile(`docs/screenshots/report-${lang}-print-${n}.png`, await readFile(`${png}.png`));
        }
      }
    });
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
