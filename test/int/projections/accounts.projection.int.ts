import t from 'tap';
import { AccountOpened, ApiKeyIssued, ApiKeyRevoked, accountStreamId } from '../../../events/account/index.ts';
import { accountsProjection } from '../../../projections/accounts/projection.ts';
import { testDatabase } from '../../helpers/db.ts';
import { projectionSpec } from '../../helpers/projectionSpec.ts';

/** Accounts and API keys folded from account events alone (no store, no subscription): projections/accounts/projection.ts. */
const { pool } = await testDatabase(t, 4);
const at = (accountId: string) => ({ accountId, streamId: accountStreamId(accountId) });
const A = at('acc_a');
const B = at('acc_b');

/** As the log holds them: the address sealed, the webhook secret only named (it is kept outside the log). */
const sealed = (accountId: string) => `enc:v1:${Buffer.from(`${accountId}@example.com`).toString('base64url')}`;
const opened = (accountId: string, role: 'user' | 'admin' = 'user') =>
  AccountOpened({
    accountId,
    email: sealed(accountId),
    role,
    unlimited: role === 'admin',
    webhookSecret: `vault:whs_${accountId.replace(/[^a-z]/g, '')}`,
  });
const issued = (
  keyId: string,
  hashChar: string,
  scopes: ('audits:read' | 'audits:write')[] = ['audits:read', 'audits:write'],
) => ApiKeyIssued({ keyId, keyHash: hashChar.repeat(64), keyPrefix: `ak_${keyId}`, scopes });
const revoked = (keyId: string) => ApiKeyRevoked({ keyId });

const ACCOUNTS = `SELECT account_id, email_sealed, role, (opened_at AT TIME ZONE 'UTC')::text AS opened_at FROM accounts ORDER BY account_id`;
const KEYS = `SELECT key_id, account_id, key_hash, key_prefix, scopes, revoked, (issued_at AT TIME ZONE 'UTC')::text AS issued_at,
                     (revoked_at AT TIME ZONE 'UTC')::text AS revoked_at
              FROM api_keys ORDER BY key_id`;

const key = (
  keyId: string,
  accountId: string,
  hashChar: string,
  issuedAt: string,
  revokedAt: string | null = null,
  scopes = ['audits:read', 'audits:write'],
) => ({
  key_id: keyId,
  account_id: accountId,
  key_hash: hashChar.repeat(64),
  key_prefix: `ak_${keyId}`,
  scopes,
  revoked: revokedAt !== null,
  issued_at: issuedAt,
  revoked_at: revokedAt,
});

t.test('opened: one row per account with its sealed email, role and opening time, and no webhook secret', async (t) => {
  await projectionSpec(pool, accountsProjection)
    .given([
      [opened('acc_a'), A],
      [opened('acc_b', 'admin'), B],
    ])
    .then(t, ACCOUNTS, [
      {
        account_id: 'acc_a',
        email_sealed: sealed('acc_a'),
        role: 'user',
        opened_at: '2026-01-01 00:00:00',
      },
      {
        account_id: 'acc_b',
        email_sealed: sealed('acc_b'),
        role: 'admin',
        opened_at: '2026-01-01 00:00:01',
      },
    ]);
});

t.test('key issued: its hash, prefix and scopes, not revoked', async (t) => {
  await projectionSpec(pool, accountsProjection)
    .given([
      [opened('acc_a'), A],
      [issued('key_1', 'a'), A],
      [issued('key_2', 'b', ['audits:read']), A],
    ])
    .then(t, KEYS, [
      key('key_1', 'acc_a', 'a', '2026-01-01 00:00:01'),
      key('key_2', 'acc_a', 'b', '2026-01-01 00:00:02', null, ['audits:read']),
    ]);
});

t.test(
  'key revoked: that key only, at the time of the revocation; a later revocation keeps the first time',
  async (t) => {
    await projectionSpec(pool, accountsProjection)
      .given([
        [opened('acc_a'), A],
        [issued('key_1', 'a'), A],
        [issued('key_2', 'b'), A],
        [revoked('key_1'), A],
        [revoked('key_1'), A],
      ])
      .then(t, KEYS, [
        key('key_1', 'acc_a', 'a', '2026-01-01 00:00:01', '2026-01-01 00:00:03'),
        key('key_2', 'acc_a', 'b', '2026-01-01 00:00:02'),
      ]);
  },
);

t.test("a revocation on another account's stream does not touch the key", async (t) => {
  await projectionSpec(pool, accountsProjection)
    .given([
      [opened('acc_a'), A],
      [opened('acc_b'), B],
      [issued('key_1', 'a'), A],
      [revoked('key_1'), B],
    ])
    .then(t, KEYS, [key('key_1', 'acc_a', 'a', '2026-01-01 00:00:02')]);
});

t.test('an AccountOpened from before secrets left the log copies neither into the table', async (t) => {
  // Written before; `secrets migrate` rewrites such events and fills the sealed address in.
  const legacy = AccountOpened({
    accountId: 'acc_old',
    email: 'old@example.com',
    role: 'user',
    unlimited: false,
    webhookSecret: 'vault:whs_old',
  });
  await projectionSpec(pool, accountsProjection)
    .given([[{ ...legacy, data: { ...legacy.data, email: 'old@example.com' } }, at('acc_old')]], { validate: false })
    .then(t, ACCOUNTS, [{ account_id: 'acc_old', email_sealed: null, role: 'user', opened_at: '2026-01-01 00:00:00' }]);
});

t.test('a replay of every event twice changes nothing', async (t) => {
  const spec = projectionSpec(pool, accountsProjection).given([
    [opened('acc_a'), A],
    [issued('key_1', 'a'), A],
    [revoked('key_1'), A],
    [issued('key_2', 'b'), A],
  ]);
  await spec.thenAgain(
    t,
    ACCOUNTS,
    [
      {
        account_id: 'acc_a',
        email_sealed: sealed('acc_a'),
        role: 'user',
        opened_at: '2026-01-01 00:00:00',
      },
    ],
    'accounts after a replay',
  );
  await spec.thenAgain(
    t,
    KEYS,
    [
      key('key_1', 'acc_a', 'a', '2026-01-01 00:00:01', '2026-01-01 00:00:02'),
      key('key_2', 'acc_a', 'b', '2026-01-01 00:00:03'),
    ],
    'keys after a replay: key_1 still revoked at its first time, key_2 still live',
  );
});
