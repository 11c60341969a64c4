/**
 * Competitor pages through the guarded crawler: bounded concurrency, SERP order kept, each
 * failure skipped and reported.
 */
import t from 'tap';
import { classifyAddress } from '../../../infra/http/addressPolicy.ts';
import { crawlCompetitors } from '../../../infra/http/competitors.ts';
import { createGuard } from '../../../infra/http/guard.ts';
import { ARTICLE, startPageServer } from '../../fixtures/http/pageServer.ts';

const site = await startPageServer({ host: '127.0.0.2' });
const internal = await startPageServer({ host: '127.0.0.1' });
t.teardown(() => Promise.all([site.close(), internal.close()]));

const guard = createGuard({
  allowPrivateAddresses: false,
  resolver: async (host) => {
    if (host.endsWith('.public.test')) return [{ address: '127.0.0.2', family: 4 }];
    if (host === 'intranet.test') return [{ address: '127.0.0.1', family: 4 }];
    throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  },
  classify: (a) => (a === '127.0.0.2' ? { allowed: true } : classifyAddress(a)),
});

t.test('top pages fetched, failures skipped and reported, order kept', async (t) => {
  const organic = [
    { url: site.url('/slow?1', 'a.public.test'), title: 'A' },
    { url: site.url('/missing', 'b.public.test'), title: 'B' },
    { url: site.url('/slow?2', 'c.public.test'), title: 'C' },
    { url: internal.url('/page', 'intranet.test'), title: 'Internal' },
    { url: site.url('/json', 'd.public.test'), title: 'D' },
    { url: site.url('/slow?1', 'a.public.test'), title: 'A again' },
    { url: site.url('/slow?3', 'e.public.test'), title: 'E' },
    { url: site.url('/slow?4', 'f.public.test'), title: 'F' },
    { url: site.url('/slow?5', 'g.public.test'), title: 'G' },
    { url: 'https://nowhere.test/', title: 'H' },
    { url: site.url('/slow?6', 'i.public.test'), title: 'I' },
    { url: site.url('/slow?7', 'j.public.test'), title: 'J' },
    { url: site.url('/slow?8', 'k.public.test'), title: 'K (11th distinct: not fetched)' },
  ];
  const { pages, failures } = await crawlCompetitors(organic, { guard, count: 10, concurrency: 3 });
  t.same(
    pages.map((p) => p.title),
    ['A', 'C', 'E', 'F', 'G', 'I'],
  );
  t.ok(pages.every((p) => p.html === ARTICLE));
  t.same(
    failures.map((f) => [f.url.replace(/:\d+/, ''), f.reason]),
    [
      ['http://b.public.test/missing', 'http_status'],
      ['http://intranet.test/page', 'blocked'],
      ['http://d.public.test/json', 'not_html'],
      ['https://nowhere.test/', 'dns'],
    ],
  );
  t.ok(site.maxInFlight <= 3 && site.maxInFlight >= 2, `at most 3 at a time (saw ${site.maxInFlight})`);
  t.notOk(
    site.hits.some((h) => h.path.includes('?8')),
    'only the top 10 distinct results',
  );
  t.equal(internal.hits.length, 0, 'the blocked one was never connected to');
});

t.test('nothing to fetch', async (t) => {
  t.same(await crawlCompetitors([], { guard }), { pages: [], failures: [] });
});
