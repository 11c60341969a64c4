import t from 'tap';
import { loadConfig } from '../../../infra/config.ts';

t.test('defaults: SERP provider none, crawler limits', async (t) => {
  const c = loadConfig({});
  t.same(c.serp, { provider: 'none' });
  t.same(c.crawl, {
    timeoutMs: 15_000,
    maxBytes: 5 * 1024 * 1024,
    maxRedirects: 5,
    competitorCount: 10,
    competitorConcurrency: 3,
  });
});

t.test('file and http providers', async (t) => {
  t.same(loadConfig({ SERP_PROVIDER: 'file', SERP_FILE: 'serp.json' }).serp, { provider: 'file', file: 'serp.json' });
  t.same(loadConfig({ SERP_PROVIDER: 'http', SERP_HTTP_LOGIN: 'l', SERP_HTTP_PASSWORD: 'p' }).serp, {
    provider: 'http',
    baseUrl: 'https://api.dataforseo.com',
    login: 'l',
    password: 'p',
    timeoutMs: 30_000,
    locationCode: null,
    depth: 10,
  });
  const c = loadConfig({
    SERP_PROVIDER: 'http',
    SERP_HTTP_BASE_URL: 'http://127.0.0.1:9/',
    SERP_HTTP_LOGIN: 'l',
    SERP_HTTP_PASSWORD: 'p',
    SERP_LOCATION_CODE: '2826',
    SERP_DEPTH: '20',
  });
  t.match(c.serp, { baseUrl: 'http://127.0.0.1:9', locationCode: 2826, depth: 20 });
  t.same(
    loadConfig({
      CRAWL_TIMEOUT_MS: '5000',
      CRAWL_MAX_BYTES: '1048576',
      CRAWL_MAX_REDIRECTS: '0',
      SERP_COMPETITORS: '5',
      SERP_COMPETITOR_CONCURRENCY: '2',
    }).crawl,
    {
      timeoutMs: 5000,
      maxBytes: 1048576,
      maxRedirects: 0,
      competitorCount: 5,
      competitorConcurrency: 2,
    },
  );
});

t.test('bad values are reported together', async (t) => {
  t.throws(() => loadConfig({ SERP_PROVIDER: 'google' }), {
    message: /SERP_PROVIDER must be none, file or http, got "google"/,
  });
  t.throws(() => loadConfig({ SERP_PROVIDER: 'file' }), { message: /SERP_FILE must name the SERP JSON file/ });
  t.throws(() => loadConfig({ SERP_PROVIDER: 'http', SERP_HTTP_BASE_URL: 'ftp://x' }), {
    message: /SERP_HTTP_BASE_URL must be an http\(s\) URL[\s\S]*SERP_HTTP_LOGIN and SERP_HTTP_PASSWORD are required/,
  });
  t.throws(
    () => loadConfig({ CRAWL_TIMEOUT_MS: 'fast', CRAWL_MAX_REDIRECTS: '50', SERP_COMPETITOR_CONCURRENCY: '9' }),
    {
      message:
        /CRAWL_TIMEOUT_MS must be an integer[\s\S]*CRAWL_MAX_REDIRECTS must be an integer from 0 to 20[\s\S]*SERP_COMPETITOR_CONCURRENCY must be an integer from 1 to 5/,
    },
  );
});
