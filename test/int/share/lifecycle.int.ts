import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import { shareStreamId } from '../../../events/share/events.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import { submitAudit } from '../../../services/pipeline/submitAudit.ts';
import { eventually } from '../../helpers/db.ts';
import { auditRequest } from '../../helpers/pipelineService.ts';
import { servePages } from '../../helpers/pageServer.ts';
import { bearer, fixture, pathOf, PUBLIC_BASE_URL, startShareService } from './fixtures/shareService.ts';

// Long enough for a loaded machine to finish the other audits before the Polish link expires.
const DAY_SECONDS = 30;
const enText = fixture('strong/en-howto-descale.md');
const plText = fixture('strong/pl-howto-zakwas.md');
const URL_SHAPE = new RegExp(`^${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/share/[A-Za-z0-9_-]{32}\\?lang=(pl|en)$`);

t.test(
  'every row of spec 3.3 and every rule of 4.7-4.8, on Kafka and PostgreSQL, with the scheduler expiring links',
  async (t) => {
    const svc = await startShareService(t, { kind: 'kafka', daySeconds: DAY_SECONDS, rateLimits: { share: 1000 } });
    const { app, pool } = svc;
    const owner = await svc.account();
    const stranger = await svc.account();
    const key = owner.apiKey;
    let release!: () => void;
    const web = await servePages(t, {
      '/slow': {
        body: `<html><body><h1>Slow</h1><p>${'word '.repeat(200)}</p></body></html>`,
        hold: new Promise<void>((r) => (release = r)),
      },
    });
    t.teardown(() => release());

    const post = (id: string, payload?: unknown, k = key) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/audits/${id}/share`,
        headers: { ...bearer(k), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        payload: payload === undefined ? undefined : JSON.stringify(payload),
      });
    const del = (id: string, k = key) =>
      app.inject({ method: 'DELETE', url: `/api/v1/audits/${id}/share`, headers: bearer(k) });
    const get = async (id: string) =>
      (await app.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: bearer(key) })).json();
    const page = (shareUrl: string) => app.inject({ method: 'GET', url: pathOf(shareUrl) });
    const credits = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key) })).json().auditCredits;

    // Three audits: Polish with share: true and a one-day expiry, English without share, one that fails.
    const plJob = await svc.submit(key, {
      content: plText,
      keyword: 'zakwas na chleb',
      share: true,
      shareExpiresInDays: 1,
    });
    const enJob = await svc.submit(key, { content: enText, keyword: 'descale espresso machine' });
    const failedJob = await svc.submit(key, { url: `${web.base}/missing`, keyword: 'missing page' });
    const plResult = await svc.finished(key, owner.accountId, plJob.auditId, plJob.id);
    const plPageAtCompletion = (await page(plResult.meta.shareUrl)).statusCode;
    const enResult = await svc.finished(key, owner.accountId, enJob.auditId, enJob.id);
    await svc.finished(key, owner.accountId, failedJob.auditId, failedJob.id);

    await t.test(
      '3.3 row 1: share: true issues the link when the audit finishes, clock from completion, lang=pl',
      async (t) => {
        t.equal(plResult.status, 'completed');
        t.match(plResult.meta.shareUrl, URL_SHAPE, 'unguessable address on PUBLIC_BASE_URL');
        t.match(plResult.meta.shareUrl, /\?lang=pl$/, 'Polish content: lang=pl');
        t.equal(
          plResult.meta.shareExpiresAt,
          new Date(Date.parse(plResult.completedAt) + DAY_SECONDS * 1000).toISOString(),
          'expires one day after completion',
        );
        t.equal(plPageAtCompletion, 200, 'the page opens without login');
      },
    );

    await t.test('never shared: both meta fields null', async (t) => {
      t.same([enResult.meta.shareUrl, enResult.meta.shareExpiresAt], [null, null]);
    });

    const balance = await credits();
    let enUrl = '';
    await t.test('3.3 row 2 / 4.7: POST without body shares without expiry, no credit, lang=en', async (t) => {
      const r = await post(enJob.id);
      t.equal(r.statusCode, 200);
      const body = r.json();
      t.same(Object.keys(body).sort(), ['apiVersion', 'auditId', 'expiresAt', 'id', 'shareUrl']);
      t.match(body, { id: enJob.id, auditId: enJob.auditId, expiresAt: null, apiVersion: 'v1.4' });
      t.match(body.shareUrl, URL_SHAPE);
      t.match(body.shareUrl, /\?lang=en$/);
      enUrl = body.shareUrl;
      t.same(
        (await get(enJob.id)).meta,
        { ...enResult.meta, shareUrl: enUrl, shareExpiresAt: null },
        'meta shows the link',
      );
      t.equal((await get(enJob.id)).completedAt, enResult.completedAt, 'completedAt never changes');
      t.equal(r.headers['x-ratelimit-limit'], '1000', 'counted in the share window');
    });

    await t.test('3.3 row 3: POST again keeps the address; the expiry changes only when given', async (t) => {
      t.equal((await post(enJob.id)).json().shareUrl, enUrl, 'repeat: same address');
      const before = Date.now();
      const withDays = (await post(enJob.id, { shareExpiresInDays: 30 })).json();
      t.equal(withDays.shareUrl, enUrl);
      const expires = Date.parse(withDays.expiresAt);
      t.ok(
        expires >= before + 30 * DAY_SECONDS * 1000 && expires <= Date.now() + 30 * DAY_SECONDS * 1000,
        'counted from now',
      );
      const untouched = (await post(enJob.id, {})).json();
      t.equal(untouched.expiresAt, withDays.expiresAt, 'field omitted: expiry untouched');
      t.equal((await post(enJob.id)).json().expiresAt, withDays.expiresAt, 'no body at all: expiry untouched');
      const removed = (await post(enJob.id, { shareExpiresInDays: null })).json();
      t.same([removed.shareUrl, removed.expiresAt], [enUrl, null], 'explicit null removes the expiry');
      t.equal((await get(enJob.id)).meta.shareExpiresAt, null);
    });

    await t.test(
      '3.3 row 4: the scheduler expires the link on time; URL null, the date kept; the page is a 404',
      async (t) => {
        const expiresAt = plResult.meta.shareExpiresAt;
        await eventually(
          async () => (await readStream(pool, shareStreamId(plJob.auditId))).some((e) => e.type === 'ShareExpired'),
          90_000,
          'ShareExpired',
        );
        const events = (await readStream(pool, shareStreamId(plJob.auditId))).map((e) => e.type);
        t.same(events, ['ShareIssued', 'ShareExpired'], 'one expiry event');
        const expired = await readStream(pool, shareStreamId(plJob.auditId));
        t.ok(Date.parse(expired[1]!.occurredAt) >= Date.parse(expiresAt), 'not before the date');
        t.ok(Date.parse(expired[1]!.occurredAt) < Date.parse(expiresAt) + 15_000, 'within seconds of the date');
        const meta = (await get(plJob.id)).meta;
        t.same([meta.shareUrl, meta.shareExpiresAt], [null, expiresAt], 'shareUrl null, shareExpiresAt kept');
        t.equal((await page(plResult.meta.shareUrl)).statusCode, 404);
      },
    );

    await t.test('3.3 row 5: POST after expiry: the same, working address, without expiry unless given', async (t) => {
      const r = (await post(plJob.id)).json();
      t.same([r.shareUrl, r.expiresAt], [plResult.meta.shareUrl, null]);
      t.equal((await page(r.shareUrl)).statusCode, 200, 'works again');
    });

    let revokedUrl = '';
    await t.test(
      '3.3 rows 6-7 / 4.8: DELETE revokes for good; repeats are 200; a later POST gives a NEW address',
      async (t) => {
        revokedUrl = enUrl;
        const r = await del(enJob.id);
        t.equal(r.statusCode, 200);
        t.same(r.json(), { id: enJob.id, auditId: enJob.auditId, shareUrl: null, apiVersion: 'v1.4' });
        t.equal((await del(enJob.id)).statusCode, 200, 'repeat DELETE: 200');
        t.same([(await get(enJob.id)).meta.shareUrl, (await get(enJob.id)).meta.shareExpiresAt], [null, null]);
        t.equal((await page(revokedUrl)).statusCode, 404, 'the revoked address is dead at once');
        const again = (await post(enJob.id)).json();
        t.not(again.shareUrl, revokedUrl, 'a new address');
        t.match(again.shareUrl, URL_SHAPE);
        t.equal((await page(again.shareUrl)).statusCode, 200, 'the new one works');
        t.equal((await page(revokedUrl)).statusCode, 404, 'the old one stays dead');
        t.equal(
          (await get(enJob.id)).completedAt,
          enResult.completedAt,
          'completedAt unchanged by sharing and revoking',
        );
      },
    );

    await t.test('an expired link can be revoked too, and its old address stays dead', async (t) => {
      const job = plJob.id;
      await post(job, { shareExpiresInDays: 1 });
      await eventually(async () => (await get(job)).meta.shareUrl === null, 90_000, 'the second expiry');
      t.equal((await del(job)).statusCode, 200);
      t.not((await post(job)).json().shareUrl, plResult.meta.shareUrl, 'a new address after revoking an expired link');
    });

    await t.test('no credit, ever', async (t) => {
      t.equal(await credits(), balance, 'sharing, re-sharing and revoking cost nothing');
      const ledger = (await readStream(pool, accountStreamId(owner.accountId))).filter(
        (e) => e.type === 'CreditCharged',
      );
      t.equal(ledger.length, 2, 'one charge per completed audit (the failed one none), none for sharing');
    });
    await t.test('not found and not completed', async (t) => {
      t.equal((await post(enJob.id, undefined, stranger.apiKey)).statusCode, 404, "another account's job: 404");
      t.equal((await del(enJob.id, stranger.apiKey)).statusCode, 404);
      t.equal((await post('job_doesnotexist')).json().error.code, 'not_found');
      const failed = await post(failedJob.id);
      t.equal(failed.statusCode, 409, 'error: 409');
      t.equal(failed.json().error.code, 'not_completed');
      t.equal((await del(failedJob.id)).json().error.code, 'not_completed');
      const slow = await svc.submit(key, { url: `${web.base}/slow`, keyword: 'slow page' });
      const queuedOrRunning = await post(slow.id);
      t.equal(queuedOrRunning.statusCode, 409, 'queued or running: 409');
      t.equal(queuedOrRunning.json().error.code, 'not_completed');
      release();
      const panel = await submitAudit(pool, {
        accountId: owner.accountId,
        source: 'panel',
        request: auditRequest({ content: enText, keyword: 'descale espresso machine' }),
        idempotencyKey: null,
        bulkId: null,
        now: new Date(),
        correlationId: null,
      });
      const p = await post(panel.auditId);
      t.equal(p.statusCode, 404, 'an audit created in the app is shared in the app');
      t.match(p.json().error.message, /created in the app/);
    });

    await t.test('bad bodies are 400 and change nothing', async (t) => {
      const before = (await readStream(pool, shareStreamId(enJob.auditId))).length;
      for (const payload of [
        { shareExpiresInDays: 0 },
        { shareExpiresInDays: 366 },
        { shareExpiresInDays: 1.5 },
        { shareExpiresInDays: '7' },
        { shareExpiresInDays: true },
        { days: 3 },
        [1],
      ]) {
        const r = await post(enJob.id, payload);
        t.equal(r.statusCode, 400, JSON.stringify(payload));
        t.equal(r.json().error.code, 'invalid_request');
      }
      // A body as the client sent it, not serialised by the test.
      const postRaw = (payload: string) =>
        app.inject({
          method: 'POST',
          url: `/api/v1/audits/${enJob.id}/share`,
          headers: { ...bearer(key), 'content-type': 'application/json' },
          payload,
        });
      const broken = await postRaw('{"shareExpiresInDays":');
      t.equal(broken.statusCode, 400, 'malformed JSON');
      // A JSON null is a body, and not an object (schemathesis ST201: it was read as "no body").
      const nullBody = await postRaw('null');
      t.equal(nullBody.statusCode, 400, 'a JSON null body');
      t.equal(nullBody.json().error.code, 'invalid_request');
      const empty = await postRaw('');
      t.equal(empty.statusCode, 200, 'an empty body with a JSON content type is "no body"');
      t.equal((await readStream(pool, shareStreamId(enJob.auditId))).length, before, 'nothing recorded');
    });
  },
);

t.test('spec 8: share has its own window; the OpenAPI document covers both routes', async (t) => {
  const svc = await startShareService(t, { kind: 'store', scheduler: false, rateLimits: { share: 3, submission: 5 } });
  const a = await svc.account();
  const job = await svc.submit(a.apiKey, { content: enText, keyword: 'descale espresso machine' });
  await svc.finished(a.apiKey, a.accountId, job.auditId, job.id);
  const codes: number[] = [];
  for (let i = 0; i < 4; i++)
    codes.push(
      (
        await svc.app.inject({
          method: i % 2 ? 'DELETE' : 'POST',
          url: `/api/v1/audits/${job.id}/share`,
          headers: bearer(a.apiKey),
        })
      ).statusCode,
    );
  t.same(codes, [200, 200, 200, 429], 'POST and DELETE share one window of 3');
  const r = await svc.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    headers: bearer(a.apiKey),
    payload: { content: enText, keyword: 'descale espresso machine' },
  });
  t.equal(r.statusCode, 202, 'the submission budget is untouched');
  t.equal(r.headers['x-ratelimit-limit'], '5', 'the submission window');
  // 3 unless the minute turned meanwhile: had the 4 share requests counted here, this would be a 429.
  t.ok(Number(r.headers['x-ratelimit-remaining']) >= 3, 'share requests did not use the submission budget');
  const doc = (await svc.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const share = doc.paths['/api/v1/audits/{id}/share'];
  // The statuses every /api/v1 route can answer (plugins/commonResponses.ts) come on top of the share's own.
  t.same(Object.keys(share.post.responses).sort(), [
    '200',
    '400',
    '401',
    '403',
    '404',
    '409',
    '413',
    '415',
    '429',
    '500',
  ]);
  t.same(Object.keys(share.delete.responses).sort(), [
    '200',
    '400',
    '401',
    '403',
    '404',
    '409',
    '413',
    '415',
    '429',
    '500',
  ]);
  t.ok(share.post.requestBody.content['application/json'].schema.properties.shareExpiresInDays, 'the body is declared');
  t.notOk(
    Object.keys(doc.paths).some((p) => p.startsWith('/share') || p.startsWith('/app')),
    'the HTML pages are not API endpoints',
  );
});
