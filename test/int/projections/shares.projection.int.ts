import t from 'tap';
import { typesOfStream } from '../../../events/catalogue.ts';
import {
  ShareExpired,
  ShareExpiryChanged,
  ShareIssued,
  ShareReissued,
  ShareRevoked,
  shareStreamId,
} from '../../../events/share/events.ts';
import { sharesProjection } from '../../../projections/shares/projection.ts';
import { testDatabase } from '../../helpers/db.ts';
import { secretHashOf } from '../../../core/secretHash.ts';
import { projectionSpec } from '../../helpers/projectionSpec.ts';

/** The current link of each audit folded from share events alone: projections/shares/projection.ts. */
const { pool } = await testDatabase(t, 4);
const at = (auditId: string, accountId = 'acc_a') => ({ accountId, streamId: shareStreamId(auditId) });
const S1 = at('aud_1');
const S2 = at('aud_2', 'acc_b');

/** What the log holds of a link's token: its hash (the token is derived at read, never stored). */
const TOKEN_1 = `sha256:${'1'.repeat(64)}`;
const TOKEN_2 = `sha256:${'2'.repeat(64)}`;
const issued = (auditId: string, token: string, expiresAt: string | null, lang: 'pl' | 'en' = 'en') =>
  ShareIssued({ auditId, token, lang, expiresAt, trigger: 'api' });

const SHARES = `SELECT audit_id, account_id, token_hash AS token, issue, lang, status, (expires_at AT TIME ZONE 'UTC')::text AS expires_at,
                       (updated_at AT TIME ZONE 'UTC')::text AS updated_at, stream_version
                FROM shares ORDER BY audit_id`;
const row = (
  token: string,
  status: string,
  expiresAt: string | null,
  updatedAt: string,
  version: number,
  lang = 'en',
  issue = 1,
) => ({
  audit_id: 'aud_1',
  account_id: 'acc_a',
  token,
  issue,
  lang,
  status,
  expires_at: expiresAt,
  updated_at: updatedAt,
  stream_version: version,
});

t.test('it handles every event of the share stream the catalogue declares', async (t) => {
  t.strictSame([...sharesProjection.canHandle].sort(), typesOfStream('share').sort(), 'canHandle = the share stream');
});

t.test('issued: an active link with its token, language and expiry; one row per audit', async (t) => {
  await projectionSpec(pool, sharesProjection)
    .given([
      [issued('aud_1', TOKEN_1, '2026-02-01T00:00:00.000Z'), S1],
      [issued('aud_2', TOKEN_2, null, 'pl'), S2],
    ])
    .then(t, SHARES, [
      row(TOKEN_1, 'active', '2026-02-01 00:00:00', '2026-01-01 00:00:00', 1),
      {
        audit_id: 'aud_2',
        account_id: 'acc_b',
        token: TOKEN_2,
        issue: 1,
        lang: 'pl',
        status: 'active',
        expires_at: null,
        updated_at: '2026-01-01 00:00:01',
        stream_version: 1,
      },
    ]);
});

t.test('expiry changed: a new date, then none', async (t) => {
  const first = [
    [issued('aud_1', TOKEN_1, null), S1],
    [ShareExpiryChanged({ auditId: 'aud_1', expiresAt: '2026-03-01T00:00:00.000Z' }), S1],
  ] as const;
  await projectionSpec(pool, sharesProjection)
    .given(first)
    .then(t, SHARES, [row(TOKEN_1, 'active', '2026-03-01 00:00:00', '2026-01-01 00:00:01', 2)], 'a date');
  await projectionSpec(pool, sharesProjection)
    .given([...first, [ShareExpiryChanged({ auditId: 'aud_1', expiresAt: null }), S1]])
    .then(t, SHARES, [row(TOKEN_1, 'active', null, '2026-01-01 00:00:02', 3)], 'none');
});

t.test('expired keeps its date; reissued makes the same address active again with the new expiry', async (t) => {
  const expired = [
    [issued('aud_1', TOKEN_1, '2026-01-01T00:00:01.000Z'), S1],
    [ShareExpired({ auditId: 'aud_1', expiresAt: '2026-01-01T00:00:01.000Z' }), S1],
  ] as const;
  await projectionSpec(pool, sharesProjection)
    .given(expired)
    .then(t, SHARES, [row(TOKEN_1, 'expired', '2026-01-01 00:00:01', '2026-01-01 00:00:01', 2)], 'expired');
  await projectionSpec(pool, sharesProjection)
    .given([...expired, [ShareReissued({ auditId: 'aud_1', expiresAt: null }), S1]])
    .then(t, SHARES, [row(TOKEN_1, 'active', null, '2026-01-01 00:00:02', 3)], 'reissued, same token');
});

t.test('revoked: the address is dead, no expiry', async (t) => {
  await projectionSpec(pool, sharesProjection)
    .given([
      [issued('aud_1', TOKEN_1, '2026-02-01T00:00:00.000Z'), S1],
      [ShareRevoked({ auditId: 'aud_1' }), S1],
    ])
    .then(t, SHARES, [row(TOKEN_1, 'revoked', null, '2026-01-01 00:00:01', 2)]);
});

t.test(
  'issued after a revocation: a new token in the same row, the old one is gone, also after a redelivery',
  async (t) => {
    const spec = projectionSpec(pool, sharesProjection).given([
      [issued('aud_1', TOKEN_1, null), S1],
      [ShareRevoked({ auditId: 'aud_1' }), S1],
      [issued('aud_1', TOKEN_2, '2026-04-01T00:00:00.000Z', 'pl'), S1],
    ]);
    const now = [row(TOKEN_2, 'active', '2026-04-01 00:00:00', '2026-01-01 00:00:02', 3, 'pl', 2)];
    await spec.then(t, SHARES, now, 'the new link');
    await spec.then(t, 'SELECT audit_id FROM shares WHERE token_hash = $1', [], 'the old token finds nothing', [
      TOKEN_1,
    ]);
    await spec.thenAgain(t, SHARES, now, 'a redelivery of the first ShareIssued does not bring the old token back');
  },
);

t.test('a ShareIssued from before tokens left the log (the token itself) gives only its hash here', async (t) => {
  const legacyToken = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
  await projectionSpec(pool, sharesProjection)
    .given(
      [
        [
          { ...issued('aud_1', TOKEN_1, null), data: { ...issued('aud_1', TOKEN_1, null).data, token: legacyToken } },
          S1,
        ],
      ],
      {
        validate: false,
      },
    )
    .then(t, SHARES, [row(secretHashOf(legacyToken), 'active', null, '2026-01-01 00:00:00', 1)]);
});

t.test('a redelivery of every event changes nothing, one by one or in one batch', async (t) => {
  const given = [
    [issued('aud_1', TOKEN_1, '2026-02-01T00:00:00.000Z'), S1],
    [ShareExpiryChanged({ auditId: 'aud_1', expiresAt: '2026-01-01T00:00:02.000Z' }), S1],
    [ShareExpired({ auditId: 'aud_1', expiresAt: '2026-01-01T00:00:02.000Z' }), S1],
    [ShareReissued({ auditId: 'aud_1', expiresAt: '2026-05-01T00:00:00.000Z' }), S1],
    [ShareRevoked({ auditId: 'aud_1' }), S1],
  ] as const;
  const expected = [row(TOKEN_1, 'revoked', null, '2026-01-01 00:00:04', 5)];
  await projectionSpec(pool, sharesProjection).given(given).thenAgain(t, SHARES, expected, 'one by one');
  await projectionSpec(pool, sharesProjection)
    .given(given, { inOneBatch: true })
    .thenAgain(t, SHARES, expected, 'one batch');
});
