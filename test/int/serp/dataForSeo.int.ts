/**
 * The http SERP provider against a local server answering in DataForSEO's documented shapes.
 * Real HTTP, no mocks of it.
 */
import t from 'tap';
import { createDataForSeoProvider, SERP_PATH, VOLUME_PATH } from '../../../infra/serp/dataForSeo/provider.ts';
import { createSerpProvider } from '../../../infra/serp/index.ts';
import { startFakeDataForSeo } from '../../fixtures/http/dataForSeoServer.ts';

const api = await startFakeDataForSeo();
t.teardown(() => api.close());
const settings = {
  baseUrl: api.baseUrl,
  login: api.login,
  password: api.password,
  timeoutMs: 2000,
  locationCode: null,
  depth: 10,
};
const provider = createDataForSeoProvider(settings);

api.serps.set('descale espresso machine', {
  organic: [
    { url: 'https://www.coffee-guide.example/descale', title: 'How to Descale Your Espresso Machine' },
    { url: 'https://brewcraft.example/descaling', title: 'Espresso Machine Descaling Guide' },
    { url: 'https://homebarista.example/5-steps', title: 'Descale in 5 Steps' },
  ],
  paa: ['Can I use vinegar to descale an espresso machine?', 'How often should you descale?'],
  related: ['espresso machine descaler', 'descaling solution citric acid'],
});
api.volumes.set('descale espresso machine', 5400);
api.volumes.set('espresso descaler', 880);
t.beforeEach(() => {
  api.requests.length = 0;
  api.behaviour = {};
});

t.test('lookup: SERP and volume in the documented shapes become SerpData', async (t) => {
  const data = await provider.lookup('Descale Espresso Machine', 'pl');
  t.same(data, {
    searchVolume: 5400,
    serpOrganicCount: 3,
    organic: [
      { url: 'https://www.coffee-guide.example/descale', title: 'How to Descale Your Espresso Machine' },
      { url: 'https://brewcraft.example/descaling', title: 'Espresso Machine Descaling Guide' },
      { url: 'https://homebarista.example/5-steps', title: 'Descale in 5 Steps' },
    ],
    paa: ['Can I use vinegar to descale an espresso machine?', 'How often should you descale?'],
    related: ['espresso machine descaler', 'descaling solution citric acid'],
  });
  const serp = api.requests.find((r) => r.path === SERP_PATH)!;
  t.same(
    serp.body,
    [{ keyword: 'Descale Espresso Machine', depth: 10, language_code: 'pl', location_code: 2616 }],
    'one task, Polish location for Polish',
  );
  t.equal(serp.authorization, `Basic ${Buffer.from('test-login:test-password').toString('base64')}`);
  t.ok(api.requests.some((r) => r.path === VOLUME_PATH));
});

t.test('lookup: no search results is no data', async (t) => {
  t.equal(await provider.lookup('zzqx nothing here', 'en'), null);
});

t.test('searchVolumes: a whole batch in one request', async (t) => {
  const long = 'a '.repeat(50).trim(); // 50 words: Google Ads refuses it, so it is not sent
  const volumes = await provider.searchVolumes(
    ['Descale Espresso Machine', 'espresso descaler', 'unknown phrase', long],
    'en',
  );
  t.same(
    [...volumes],
    [
      ['Descale Espresso Machine', 5400],
      ['espresso descaler', 880],
      ['unknown phrase', null],
      [long, null],
    ],
  );
  t.equal(api.requests.length, 1, 'one call');
  t.same(api.requests[0]!.body, [
    {
      keywords: ['descale espresso machine', 'espresso descaler', 'unknown phrase'],
      language_code: 'en',
      location_code: 2840,
    },
  ]);
  t.same([...(await provider.searchVolumes([], 'en'))], [], 'nothing to ask, no call');
  t.equal(api.requests.length, 1);
});

t.test('SERP_LOCATION_CODE overrides the location', async (t) => {
  await createDataForSeoProvider({ ...settings, locationCode: 2826 }).searchVolumes(['x'], 'pl');
  t.match(api.requests[0]!.body, [{ location_code: 2826 }]);
});

t.test('errors map to AppError with a clear message', async (t) => {
  const bad = createDataForSeoProvider({ ...settings, password: 'wrong' });
  await t.rejects(bad.lookup('descale espresso machine', 'en'), {
    code: 'config_error',
    message: /credentials were refused/,
    extra: { provider: 'dataforseo', reason: 'unauthorized' },
  });
  api.behaviour = { httpStatus: 402 };
  await t.rejects(provider.searchVolumes(['x'], 'en'), { code: 'config_error', extra: { reason: 'payment_required' } });
  api.behaviour = { httpStatus: 500 };
  await t.rejects(provider.searchVolumes(['x'], 'en'), { code: 'audit_failed', message: /HTTP 500/ });
  api.behaviour = { topStatus: [50000, 'Internal Error.'] };
  await t.rejects(provider.searchVolumes(['x'], 'en'), { code: 'audit_failed', message: /50000 Internal Error\./ });
  api.behaviour = { taskStatus: [40501, "Invalid Field: 'language_code'."] };
  await t.rejects(provider.lookup('descale espresso machine', 'xx'), {
    code: 'audit_failed',
    message: /40501 Invalid Field/,
    extra: { reason: 'task_error' },
  });
  api.behaviour = { garbage: true };
  await t.rejects(provider.searchVolumes(['x'], 'en'), { code: 'audit_failed', extra: { reason: 'malformed' } });
  api.behaviour = { delayMs: 2500 };
  await t.rejects(createDataForSeoProvider({ ...settings, timeoutMs: 1000 }).searchVolumes(['x'], 'en'), {
    code: 'audit_failed',
    message: /no answer within 1 s/,
    extra: { reason: 'timeout' },
  });
  const wrongBase = createDataForSeoProvider({ ...settings, baseUrl: `${api.baseUrl}/nope` });
  api.behaviour = {};
  await t.rejects(wrongBase.searchVolumes(['x'], 'en'), { code: 'config_error', extra: { reason: 'not_found' } });
});

t.test('SERP_PROVIDER=http builds this provider', async (t) => {
  const p = createSerpProvider({ provider: 'http', ...settings });
  t.equal(p.name, 'http');
  t.equal((await p.lookup('descale espresso machine', 'en'))?.searchVolume, 5400);
});
