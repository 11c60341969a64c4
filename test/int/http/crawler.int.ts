/**
 * The crawler against real local servers. Two roles on loopback:
 * - 127.0.0.2 plays a public web site: the strict guard below is told to treat that one address
 *   as public (a stand-in, since tests may not connect to real public addresses);
 * - 127.0.0.1 plays the internal service an attacker wants to reach, on the same port, so that
 *   only DNS decides which of the two a URL reaches.
 * Host names come from an injected resolver (no DNS traffic); `localhost` goes through the real one.
 */
import t from 'tap';
import { classifyAddress } from '../../../infra/http/addressPolicy.ts';
import { fetchPage, type FetchPageOptions } from '../../../infra/http/crawler.ts';
import { createGuard } from '../../../infra/http/guard.ts';
import { requestPinned } from '../../../infra/http/pinnedRequest.ts';
import type { Resolver } from '../../../infra/http/resolver.ts';
import { ARTICLE, startPageServer, TEST_CERT, type PageServer } from '../../fixtures/http/pageServer.ts';

const PUBLIC_STAND_IN = '127.0.0.2';

const site = await startPageServer({ host: PUBLIC_STAND_IN });
const internal = await startPageServer({ host: '127.0.0.1', port: site.port });
const tlsSite = await startPageServer({ host: PUBLIC_STAND_IN, tls: true });
t.teardown(() => Promise.all([site.close(), internal.close(), tlsSite.close()]));
t.beforeEach(() => {
  internal.hits.length = 0;
});

let rebindCalls = 0;
const resolver: Resolver = async (host) => {
  switch (host) {
    case 'public.test':
      return [{ address: PUBLIC_STAND_IN, family: 4 }];
    case 'internal.test':
      return [{ address: '127.0.0.1', family: 4 }];
    case 'rebind.test':
      // A rebinding DNS server: a harmless answer first, the internal address ever after.
      return [{ address: ++rebindCalls === 1 ? PUBLIC_STAND_IN : '127.0.0.1', family: 4 }];
    default:
      throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  }
};
const strict = createGuard({
  allowPrivateAddresses: false,
  resolver,
  classify: (a) => (a === PUBLIC_STAND_IN ? { allowed: true } : classifyAddress(a)),
});
const open = createGuard({ allowPrivateAddresses: true }); // real resolver; used with loopback only
const onSite = (path: string) => site.url(path, 'public.test');
const fetchStrict = (url: string, o: Partial<FetchPageOptions> = {}) => fetchPage(url, { guard: strict, ...o });
const crawlFailed = (reason: string, message?: RegExp) => ({
  code: 'crawl_failed',
  extra: { reason },
  ...(message ? { message } : {}),
});

t.test('fetches an HTML page (ALLOW_PRIVATE_ADDRESSES on, 127.0.0.1)', async (t) => {
  const now = new Date('2026-01-02T03:04:05.000Z');
  const page = await fetchPage(internal.url('/page'), { guard: open, now: () => now });
  internal.hits.length = 0;
  t.equal(page.status, 200);
  t.equal(page.html, ARTICLE);
  t.equal(page.contentType, 'text/html');
  t.equal(page.charset, 'utf-8');
  t.equal(page.finalUrl, internal.url('/page'));
  t.equal(page.remoteAddress, '127.0.0.1');
  t.equal(page.fetchedAt, now.toISOString());
  t.equal(page.bytes, Buffer.byteLength(ARTICLE));
});

t.test('localhost through the real resolver', async (t) => {
  const page = await fetchPage(`http://localhost:${internal.port}/page`, { guard: open });
  t.equal(page.html, ARTICLE, 'allowed with the flag on');
  internal.hits.length = 0;
  const realStrict = createGuard({ allowPrivateAddresses: false });
  await t.rejects(
    realStrict.resolveHost('localhost'),
    { reason: 'blocked_address', message: /localhost resolves to .*not public \(loopback\)/ },
    'the real DNS answer for localhost is refused',
  );
  await t.rejects(fetchPage(`http://localhost:${internal.port}/page`, { guard: realStrict }), crawlFailed('blocked'));
  t.equal(internal.hits.length, 0);
});

t.test('encodings, compression and HTML media types', async (t) => {
  t.match((await fetchStrict(onSite('/cp1250'))).html, 'Zażółć gęślą jaźń', 'windows-1250 from the header');
  const latin2 = await fetchStrict(onSite('/meta-latin2'));
  t.match(latin2.html, 'gęślą', 'iso-8859-2 from a meta tag');
  t.equal(latin2.charset, 'iso-8859-2');
  t.equal((await fetchStrict(onSite('/gzip'))).html, ARTICLE, 'gzip decoded');
  t.equal((await fetchStrict(onSite('/xhtml'))).contentType, 'application/xhtml+xml');
  t.equal((await fetchStrict(onSite('/no-type'))).html, ARTICLE, 'no Content-Type but plainly HTML');
});

t.test('redirects are followed up to the limit and reported', async (t) => {
  const page = await fetchStrict(onSite('/chain/3'));
  t.equal(page.finalUrl, onSite('/page'));
  t.same(page.redirects, [onSite('/chain/2'), onSite('/chain/1'), onSite('/page')]);
  t.equal(
    (await fetchStrict(onSite('/chain/5'), { limits: { maxRedirects: 5 } })).redirects.length,
    5,
    'five redirects are fine',
  );
  await t.rejects(
    fetchStrict(onSite('/chain/6'), { limits: { maxRedirects: 5 } }),
    crawlFailed('too_many_redirects', /more than 5 times/),
  );
  await t.rejects(fetchStrict(onSite('/chain/1'), { limits: { maxRedirects: 0 } }), crawlFailed('too_many_redirects'));
});

t.test('every redirect is checked again', async (t) => {
  const to = (target: string) => onSite(`/redirect?to=${encodeURIComponent(target)}`);
  const hostile = [
    [`http://internal.test:${site.port}/page`, 'a name resolving to loopback'],
    [`http://127.0.0.1:${site.port}/page`, 'a loopback literal'],
    [`http://2130706433:${site.port}/page`, 'a decimal loopback literal'],
    [`http://[::ffff:127.0.0.1]:${site.port}/page`, 'an IPv4-mapped loopback literal'],
    [`http://localhost:${site.port}/page`, 'localhost'],
  ];
  for (const [target, what] of hostile) {
    await t.rejects(fetchStrict(to(target!)), { code: 'crawl_failed' }, what!);
  }
  await t.rejects(fetchStrict(to('file:///etc/passwd')), { code: 'crawl_failed' }, 'a file: URL');
  t.equal(internal.hits.length, 0, 'the internal service was never reached');
  t.equal((await fetchStrict(to('/page'))).html, ARTICLE, 'a redirect within the public site is fine');
  // A Location with a user name or password is refused, as the same URL is at submission: got
  // would otherwise strip or move the credentials before any hook sees the URL, and follow it.
  for (const target of [
    `http://user:pw@public.test:${site.port}/page`,
    `http://user@public.test:${site.port}/page`,
    `http://:pw@public.test:${site.port}/page`,
    `http://user:pw@127.0.0.2:${site.port}/page`,
    '//user:pw@public.test:' + site.port + '/page',
  ]) {
    site.hits.length = 0;
    await t.rejects(
      fetchStrict(to(target)),
      crawlFailed('bad_url', /user name or password/),
      `a Location with credentials (${target}) is refused`,
    );
    t.same(
      site.hits.map((h) => h.path.split('?')[0]),
      ['/redirect'],
      'and never followed: nothing but the redirecting page was asked for',
    );
  }
});

t.test('DNS rebinding: the connection goes to the address that was checked', async (t) => {
  rebindCalls = 0;
  const page = await fetchStrict(`http://rebind.test:${site.port}/page`);
  t.equal(rebindCalls, 1, 'one resolution per connection: nothing to race');
  t.equal(page.remoteAddress, PUBLIC_STAND_IN, 'connected to the address that was checked');
  t.equal(page.html, ARTICLE);

  // The second connection (a redirect to the same host) asks DNS again and now gets the
  // internal address: refused, not connected.
  rebindCalls = 0;
  await t.rejects(
    fetchStrict(`http://rebind.test:${site.port}/redirect?to=/page`),
    crawlFailed('blocked', /rebind\.test resolves to 127\.0\.0\.1/),
  );
  t.equal(rebindCalls, 2);

  // The webhook path: resolve and check once, then connect to that pinned address even though
  // DNS would now answer differently.
  rebindCalls = 0;
  const target = await strict.resolveTarget(`http://rebind.test:${site.port}/echo-host`);
  t.equal(target.address, PUBLIC_STAND_IN);
  await t.rejects(
    strict.resolveTarget(`http://rebind.test:${site.port}/`),
    { name: 'GuardError', reason: 'blocked_address' },
    'DNS has flipped',
  );
  const res = await requestPinned(target, { timeoutMs: 2000 });
  t.equal(res.status, 200);
  t.equal(res.remoteAddress, PUBLIC_STAND_IN);
  t.match(res.body.toString(), `host=rebind.test:${site.port}`, 'Host header keeps the name');
  t.equal(internal.hits.length, 0, 'the internal service was never reached');
});

t.test('https: pinned address, SNI and Host keep the name', async (t) => {
  const url = tlsSite.url('/echo-host', 'public.test');
  const page = await fetchStrict(url);
  t.match(page.html, `host=public.test:${tlsSite.port} sni=public.test`);
  t.equal(page.remoteAddress, PUBLIC_STAND_IN);

  const hooks = createGuard({
    allowPrivateAddresses: false,
    httpsOnly: true,
    resolver,
    classify: (a) => (a === PUBLIC_STAND_IN ? { allowed: true } : classifyAddress(a)),
  });
  const target = await hooks.resolveTarget(url);
  const res = await requestPinned(target, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    timeoutMs: 2000,
    ca: TEST_CERT,
  });
  t.equal(res.status, 200, 'certificate verified for public.test while connected to the pinned address');
  t.match(res.body.toString(), 'sni=public.test');
  await t.rejects(
    requestPinned(target, { timeoutMs: 2000 }),
    { name: 'PinnedRequestError', kind: 'network' },
    'an untrusted certificate is refused by default',
  );
  const redirect = await requestPinned(await hooks.resolveTarget(tlsSite.url('/redirect?to=/page', 'public.test')), {
    timeoutMs: 2000,
    ca: TEST_CERT,
  });
  t.equal(redirect.status, 302, 'redirects are returned, never followed');
  t.throws(
    () => hooks.checkUrl(site.url('/page', 'public.test')),
    { name: 'GuardError', reason: 'scheme' },
    'http refused for webhooks',
  );
});

t.test('byte limit: stops reading beyond it', async (t) => {
  const limits = { maxBytes: 1024 * 1024 };
  await t.rejects(
    fetchStrict(onSite('/big'), { limits }),
    crawlFailed('too_large', /larger than the 1 MB limit/),
    'declared Content-Length',
  );
  await t.rejects(
    fetchStrict(onSite('/big-chunked'), { limits }),
    crawlFailed('too_large'),
    'chunked, counted while reading',
  );
  await t.rejects(
    fetchStrict(onSite('/gzip-bomb'), { limits }),
    crawlFailed('too_large'),
    'counted after decompression',
  );
});

t.test('time limit over the whole fetch', async (t) => {
  const started = Date.now();
  await t.rejects(
    fetchStrict(onSite('/hang'), { limits: { timeoutMs: 500 } }),
    crawlFailed('timeout', /within 0\.5 s/),
  );
  await t.rejects(
    fetchStrict(onSite('/drip'), { limits: { timeoutMs: 1500 } }),
    crawlFailed('timeout'),
    'a body that never ends',
  );
  t.ok(Date.now() - started < 4000, 'gave up in time');
});

t.test('refusals with clear messages', async (t) => {
  await t.rejects(fetchStrict(onSite('/json')), crawlFailed('not_html', /not HTML \(Content-Type application\/json\)/));
  await t.rejects(fetchStrict(onSite('/pdf')), crawlFailed('not_html'));
  await t.rejects(fetchStrict(onSite('/no-type-binary')), crawlFailed('not_html'));
  await t.rejects(fetchStrict(onSite('/missing')), crawlFailed('http_status', /HTTP 404/));
  await t.rejects(fetchStrict(onSite('/broken')), crawlFailed('http_status', /HTTP 500/));
  await t.rejects(fetchStrict(onSite('/empty')), crawlFailed('empty', /empty/));
  await t.rejects(fetchStrict(onSite('/blank')), crawlFailed('empty'));
  await t.rejects(fetchStrict('ftp://public.test/'), crawlFailed('bad_url', /scheme/));
  await t.rejects(fetchStrict('not a url'), crawlFailed('bad_url'));
  await t.rejects(
    fetchStrict(`http://nowhere.test:${site.port}/`),
    crawlFailed('dns', /could not resolve nowhere\.test/),
  );
  await t.rejects(fetchStrict(`http://internal.test:${site.port}/page`), crawlFailed('blocked'));
  await t.rejects(fetchPage(`http://127.0.0.1:1/`, { guard: open }), { code: 'crawl_failed' }, 'port 1 is refused');
  t.equal(internal.hits.length, 0);
});

t.test('connection refused', async (t) => {
  const gone: PageServer = await startPageServer();
  const url = gone.url('/page');
  await gone.close();
  await t.rejects(fetchPage(url, { guard: open }), crawlFailed('connection', /refused/));
});
