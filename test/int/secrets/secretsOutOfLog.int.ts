import t from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import type { EventEnvelope } from '../../../events/envelope.ts';
import { shareStreamId } from '../../../events/share/events.ts';
import { EVENT_COLUMNS, rowToEnvelope, type EventRow } from '../../../infra/eventStore/rows.ts';
import { withTransaction, type Pool } from '../../../infra/postgres/pool.ts';
import { openPersonal } from '../../../infra/secrets/personalData.ts';
import { accountsProjection } from '../../../projections/accounts/projection.ts';
import { findApiKeyByHash } from '../../../projections/accounts/queries.ts';
import { findLiveShare, findShare } from '../../../projections/shares/queries.ts';
import { sharesProjection } from '../../../projections/shares/projection.ts';
import { forgetAccount } from '../../../services/accounts/forget.ts';
import { exportFromStore } from '../../../services/admin/eventsExport.ts';
import { replayLedger } from '../../../services/admin/replayLedger.ts';
import { verifyLedger } from '../../../services/admin/verifyLedger.ts';
import { hashApiKey } from '../../../services/api/auth/apiKeys.ts';
import { migrateLegacySecrets } from '../../../services/secrets/migrateLegacy.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { asyncProjections } from '../../../projections/index.ts';
import { ledgerProjection } from '../../../projections/ledger/projection.ts';
import { createProjectionTables } from '../../../projections/runner.ts';
import { bearer, fixture, pathOf, startShareService } from '../share/fixtures/shareService.ts';

/**
 * Secrets never enter the log, and erasure keeps the ledger provable (docs/privacy.md): the whole
 * service on the embedded log, an account with credits, an audit shared through every state of spec
 * 3.3, then every stored event is searched for anything secret or personal; then the account is
 * forgotten; then events written before all this are migrated.
 */
// Every stored row, straight from the table: readLog holds back rows behind any transaction still
// running in the cluster (pg_snapshot_xmin), and the tests beside this one run theirs in other
// databases of the same server, so under load it returned nothing here once in CI.
const allEvents = async (pool: Pool): Promise<EventEnvelope[]> =>
  (await pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events ORDER BY seq`)).rows.map(rowToEnvelope);
const exported = async (pool: Pool): Promise<string> => {
  let text = '';
  await exportFromStore(pool, { format: 'jsonl', follow: false, progress: false }, (c) => void (text += c));
  return text;
};
/** Any clear secret or address, whoever's: the shapes they have in this service. */
const SECRET_SHAPES: [string, RegExp][] = [
  ['webhook secret', /whsec_[0-9a-f]{16,}/],
  ['API key', /ask_[A-Za-z0-9_-]{20,}/],
  ['e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/],
];
const tokenOf = (shareUrl: string) => /\/share\/([A-Za-z0-9_-]{32})\?/.exec(shareUrl)![1]!;

t.test('secrets and personal data stay out of the log; erasure keeps the ledger provable', async (t) => {
  const svc = await startShareService(t, { kind: 'store', rateLimits: { share: 1000 } });
  const { app, pool } = svc;
  const owner = await svc.account(5);
  const me = async () => (await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(owner.apiKey) })).json();

  await t.test('GET /me still gives the email and the webhook secret (spec 2.1, 5.6)', async (t) => {
    const body = await me();
    t.equal(body.email, owner.email);
    t.equal(body.apiKey.webhookSecret, owner.webhookSecret, 'the secret made at account creation');
    t.match(owner.webhookSecret, /^whsec_[0-9a-f]{64}$/);
  });

  const job = await svc.submit(owner.apiKey, {
    content: fixture('strong/en-howto-descale.md'),
    keyword: 'descale espresso machine',
    share: true,
  });
  const done = await svc.finished(owner.apiKey, owner.accountId, job.auditId, job.id);
  const post = (payload?: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/audits/${job.id}/share`,
      headers: { ...bearer(owner.apiKey), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const page = async (url: string) => (await app.inject({ method: 'GET', url: pathOf(url) })).statusCode;
  const tokens: string[] = [];

  await t.test('share links work through every state while the log holds only their hash', async (t) => {
    const first = done.meta.shareUrl as string;
    tokens.push(tokenOf(first));
    t.equal(await page(first), 200, 'issued at completion (row 1): the page opens');
    const again = (await post({ shareExpiresInDays: 2 })).json();
    t.equal(again.shareUrl, first, 'a POST on an active link keeps the address (expiry changed)');
    t.equal(
      (await app.inject({ method: 'DELETE', url: `/api/v1/audits/${job.id}/share`, headers: bearer(owner.apiKey) }))
        .statusCode,
      200,
    );
    t.equal(await page(first), 404, 'revoked: the address is dead');
    const second = (await post()).json().shareUrl as string;
    tokens.push(tokenOf(second));
    t.not(second, first, 'a new address after a revocation');
    t.equal(await page(second), 200);
    t.equal(await page(first), 404, 'the old one stays dead');
    const read = (
      await app.inject({ method: 'GET', url: `/api/v1/audits/${job.id}`, headers: bearer(owner.apiKey) })
    ).json();
    t.equal(read.meta.shareUrl, second, 'GET /audits/{id} rebuilds the same address');
    const issued = (await allEvents(pool)).filter(
      (e) => e.streamId === shareStreamId(job.auditId) && e.type === 'ShareIssued',
    );
    t.equal(issued.length, 2);
    for (const e of issued) t.match((e.payload as { token: string }).token, /^sha256:[0-9a-f]{64}$/);
  });

  await t.test('no stored event and no line of the export holds a secret, a token or the address', async (t) => {
    const events = await allEvents(pool);
    t.ok(events.length > 10, `${events.length} events of ${new Set(events.map((e) => e.type)).size} types`);
    const known = [owner.webhookSecret, owner.apiKey, owner.email, ...tokens];
    for (const [where, text] of [
      ['the store', JSON.stringify(events, (_k, v) => (typeof v === 'bigint' ? String(v) : v))],
      ['events export', await exported(pool)],
    ] as const) {
      for (const k of known) t.notOk(text.includes(k), `${where} does not hold ${k.slice(0, 6)}...`);
      for (const [what, shape] of SECRET_SHAPES) t.notOk(shape.test(text), `${where} holds no ${what}`);
    }
  });

  await t.test('forget: reads and exports show no address, the ledger still verifies', async (t) => {
    const before = await replayLedger(pool, owner.accountId);
    const opened = (await allEvents(pool)).find((e) => e.type === 'AccountOpened' && e.accountId === owner.accountId)!;
    const sealed = (opened.payload as { email: string }).email;
    await forgetAccount(pool, { accountId: owner.accountId, actor: 'dpo', reason: 'test' });

    // API processes drop their cached keys at the erasure's NOTIFY, as for a revocation: moments after commit.
    await eventually(async () => (await me()).email === '[erased]', 5_000, 'the key cache to drop the account');
    const body = await me();
    t.equal(body.email, '[erased]', 'GET /me');
    t.equal(body.apiKey.webhookSecret, owner.webhookSecret, 'the webhook secret is no personal data: it stays');
    t.equal((await findApiKeyByHash(pool, hashApiKey(owner.apiKey)))?.email, '[erased]', 'the read model');
    const keys = await pool.query('SELECT wrapped FROM account_data_keys WHERE account_id = $1', [owner.accountId]);
    t.same(keys.rows, [{ wrapped: null }], 'the key is gone');
    t.equal(openPersonal(null, sealed, owner.accountId), '[erased]', 'the sealed address in the log opens for nobody');
    // The export reads the log in commit order (readLog): an erasure committed while an older
    // transaction is still open (another test's pipeline) shows once that one ends.
    let text = '';
    await eventually(
      async () => /"type":"PersonalDataErased"/.test((text = await exported(pool))),
      10_000,
      'the erasure in the export',
    );
    t.notOk(text.includes(owner.email), 'the export');
    t.match(text, /"type":"PersonalDataErased"/, 'the log records the erasure');

    const report = await verifyLedger(pool, owner.accountId);
    t.equal(report.ok, true, 'ledger verify: chain and fold');
    t.same(report.chain.breaks, [], 'no break in the hash chain');
    const after = await replayLedger(pool, owner.accountId);
    t.same(after.entries, before.entries, 'the credit history is whole');
    t.equal(after.balance, before.balance);
    t.equal((await post()).statusCode, 200, 'the account still works');
  });
});

t.test('events from before secrets left the log: the one-time migration', async (t) => {
  const { pool } = await testDatabase(t);
  await createProjectionTables(pool, asyncProjections);
  const accountId = 'usr_legacyaccount';
  const email = 'legacy@example.com';
  const secret = `whsec_${'ab'.repeat(32)}`;
  const apiKey = `ask_${'k'.repeat(43)}`;
  const legacyToken = 'LegacyRandomToken0123456789abcde';
  const auditId = 'aud_legacy';
  // Written as the old code wrote them: in clear, straight into the store (today's append refuses them).
  const rows = [
    [
      accountStreamId(accountId),
      1,
      'AccountOpened',
      { accountId, email, role: 'user', unlimited: false, webhookSecret: secret },
    ],
    [
      accountStreamId(accountId),
      2,
      'ApiKeyIssued',
      {
        keyId: 'key_legacy',
        keyHash: hashApiKey(apiKey),
        keyPrefix: 'ask_kkkk',
        scopes: ['audits:read', 'audits:write'],
      },
    ],
    [
      shareStreamId(auditId),
      1,
      'ShareIssued',
      { auditId, token: legacyToken, lang: 'en', expiresAt: null, trigger: 'api' },
    ],
  ] as const;
  await withTransaction(pool, async (tx) => {
    for (const [streamId, version, type, payload] of rows) {
      await tx.query(
        `INSERT INTO events (id, stream_id, stream_version, account_id, partition, type, version, occurred_at, payload)
         VALUES (gen_random_uuid()::text, $1, $2, $3, 0, $4, 1, now(), $5)`,
        [streamId, version, accountId, type, JSON.stringify(payload)],
      );
    }
  });
  // The read models as the old inline projections left them (folded from those very events).
  const stored = (await allEvents(pool)).filter((e) => e.accountId === accountId);
  await withTransaction(pool, async (tx) => {
    await accountsProjection.handle(
      stored.filter((e) => e.streamId.startsWith('account-')),
      tx,
    );
    await sharesProjection.handle(
      stored.filter((e) => e.type === 'ShareIssued'),
      tx,
    );
  });
  const before = await pool.query<{ id: string; sha: string }>(
    `SELECT id, encode(sha256(convert_to(payload::text, 'UTF8')), 'hex') AS sha FROM events
      WHERE account_id = $1 AND type IN ('AccountOpened', 'ShareIssued') ORDER BY seq`,
    [accountId],
  );

  t.same(await migrateLegacySecrets(pool), { accounts: 1, shares: 1 }, 'one account and one link moved');
  t.same(await migrateLegacySecrets(pool), { accounts: 0, shares: 0 }, 'a second run finds nothing');

  const text = JSON.stringify(await allEvents(pool), (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  for (const s of [email, secret, legacyToken])
    t.notOk(text.includes(s), `the store no longer holds ${s.slice(0, 8)}...`);
  const trace = await pool.query<{ event_id: string; fields: string[]; original_sha256: string }>(
    'SELECT event_id, fields, original_sha256 FROM log_rewrites ORDER BY event_id',
  );
  t.same(
    trace.rows.map((r) => [r.event_id, r.original_sha256]).sort(),
    before.rows.map((r) => [r.id, r.sha]).sort(),
    'each rewrite is recorded with the SHA-256 of the payload as it was',
  );

  const owner = await findApiKeyByHash(pool, hashApiKey(apiKey));
  t.equal(owner?.email, email, 'the address reads as before, now sealed');
  t.equal(owner?.webhookSecret, secret, 'GET /me and the webhooks get the same secret, from outside the log');
  t.equal((await findShare(pool, auditId))?.token, legacyToken, 'the link keeps its address');
  t.equal((await findLiveShare(pool, legacyToken))?.auditId, auditId, 'and opens');

  await forgetAccount(pool, { accountId, actor: 'dpo', reason: 'test' });
  t.equal((await findApiKeyByHash(pool, hashApiKey(apiKey)))?.email, '[erased]', 'a migrated account can be forgotten');
  // The ledger's read model, folded as its projection would (no subscriber runs here).
  const log = await allEvents(pool);
  await withTransaction(pool, (tx) => ledgerProjection.handle(log, tx));
  t.equal((await verifyLedger(pool, accountId)).ok, true);
});
