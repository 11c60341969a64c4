import t from 'tap';
import type { AccountEvent } from '../../../../events/account/index.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import type { AccountCommand } from '../../../../services/domain/account/commands.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import {
  ACCOUNT_ID,
  SEALED_EMAIL,
  WEBHOOK_SECRET_REF,
  charge,
  hashOf,
  keyIssued,
  opened,
  purchase,
} from './fixtures/account.ts';

/** Accounts, API keys and the unlimited flag. Credits are in credits.unit.ts. */
const given = spec(accountDecider).given;

const open = (
  over: Partial<{
    email: string;
    sealedEmail: string;
    role: 'user' | 'admin';
    unlimited: boolean;
    webhookSecretRef: string;
    accountId: string;
  }> = {},
): AccountCommand => ({
  type: 'OpenAccount',
  data: {
    accountId: ACCOUNT_ID,
    email: 'owner@example.com',
    sealedEmail: SEALED_EMAIL,
    role: 'user',
    unlimited: false,
    webhookSecretRef: WEBHOOK_SECRET_REF,
    ...over,
  },
});

const issue = (
  keyId: string,
  key = `sk_live_${keyId}`,
  scopes: string[] = ['audits:read', 'audits:write'],
): AccountCommand => ({
  type: 'IssueApiKey',
  data: { keyId, keyHash: hashOf(key), keyPrefix: key.slice(0, 8), scopes },
});

const revoke = (keyId: string): AccountCommand => ({ type: 'RevokeApiKey', data: { keyId } });

const setUnlimited = (unlimited: boolean, actor = 'ops@example.com', reason = 'partner account'): AccountCommand => ({
  type: 'SetUnlimited',
  data: { unlimited, actor, reason },
});

t.test('when the account is not opened', async (t) => {
  t.test('OpenAccount opens it', given([]).when(open()).then([opened()]));
  t.test(
    'an unlimited user account is recorded as such',
    given([])
      .when(open({ unlimited: true }))
      .then([opened({ unlimited: true })]),
  );
  t.test(
    'an administrator account is always unlimited (spec 2.8: administrators do not pay)',
    given([])
      .when(open({ role: 'admin', unlimited: false }))
      .then([opened({ role: 'admin', unlimited: true })]),
  );
  t.test(
    'a bad e-mail is refused',
    given([])
      .when(open({ email: 'owner' }))
      .thenThrows('invalid_request', /e-mail/),
  );
  t.test(
    'an empty account id is refused',
    given([])
      .when(open({ accountId: '' }))
      .thenThrows('invalid_request', /accountId/),
  );
  t.test(
    'an empty webhook secret reference is refused',
    given([])
      .when(open({ webhookSecretRef: ' ' }))
      .thenThrows('invalid_request', /webhookSecretRef/),
  );
  t.test(
    'a webhook secret in clear is refused: the log only names it',
    given([])
      .when(open({ webhookSecretRef: 'whsec_0123456789abcdef' }))
      .thenThrows('invalid_request', /webhookSecretRef/),
  );
  t.test(
    'an address not sealed is refused: the log never holds it in clear',
    given([])
      .when(open({ sealedEmail: 'owner@example.com' }))
      .thenThrows('invalid_request', /sealedEmail/),
  );
  t.test(
    'an unknown role is refused',
    given([])
      .when(open({ role: 'root' as 'user' }))
      .thenThrows('invalid_request', /role/),
  );

  const others: [string, AccountCommand][] = [
    ['IssueApiKey', issue('key_1')],
    ['RevokeApiKey', revoke('key_1')],
    ['SetUnlimited', setUnlimited(true)],
    ['PurchaseCredits', purchase('pay_1', 10)],
    ['ChargeCredit', charge('aud_1')],
    ['RefundCharge', { type: 'RefundCharge', data: { kind: 'audit', subjectId: 'aud_1', reason: 'x' } }],
    [
      'AdjustCredits',
      { type: 'AdjustCredits', data: { adjustmentId: 'adj_1', delta: 5, actor: 'ops', reason: 'gift' } },
    ],
  ];
  for (const [name, command] of others) {
    t.test(`${name} is not_found`, given([]).when(command).thenThrows('not_found', 'account not found'));
  }
});

t.test('when the account is opened', async (t) => {
  const history: AccountEvent[] = [opened()];
  t.test(
    'OpenAccount again is refused',
    given(history).when(open()).thenThrows('invalid_request', 'account already exists'),
  );
  t.test(
    'OpenAccount again with other details is refused too',
    given(history)
      .when(open({ email: 'x@y.z' }))
      .thenThrows('invalid_request', 'account already exists'),
  );

  t.test(
    'IssueApiKey issues a key with its hash, never the key',
    given(history)
      .when(issue('key_1'))
      .then([keyIssued('key_1')]),
  );
  t.test(
    'scopes may be one of the two',
    given(history)
      .when(issue('key_1', 'sk_live_r', ['audits:read']))
      .then([keyIssued('key_1', 'sk_live_r', ['audits:read'])]),
  );
  t.test(
    'scopes are deduplicated and put in canonical order',
    given(history)
      .when(issue('key_1', 'sk_live_x', ['audits:write', 'audits:read', 'audits:write']))
      .then([keyIssued('key_1', 'sk_live_x')]),
  );
  t.test(
    'no scope is refused',
    given(history)
      .when(issue('key_1', 'sk_live_x', []))
      .thenThrows('invalid_request', /at least one scope/),
  );
  t.test(
    'an unknown scope is refused',
    given(history)
      .when(issue('key_1', 'sk_live_x', ['audits:read', 'admin']))
      .thenThrows('invalid_request', /unknown scope admin/),
  );
  t.test(
    'a key hash that is not a SHA-256 hex is refused (the key itself must never be stored)',
    given(history)
      .when({
        type: 'IssueApiKey',
        data: { keyId: 'key_1', keyHash: 'sk_live_plaintext', keyPrefix: 'sk_live_', scopes: ['audits:read'] },
      })
      .thenThrows('invalid_request', /SHA-256/),
  );
  t.test(
    'an empty key prefix is refused',
    given(history)
      .when({
        type: 'IssueApiKey',
        data: { keyId: 'key_1', keyHash: hashOf('k'), keyPrefix: '', scopes: ['audits:read'] },
      })
      .thenThrows('invalid_request', /keyPrefix/),
  );

  t.test(
    'RevokeApiKey of an unknown key is not_found',
    given(history).when(revoke('key_9')).thenThrows('not_found', /key_9/),
  );

  t.test(
    'SetUnlimited(true) marks it unlimited',
    given(history)
      .when(setUnlimited(true))
      .then([{ type: 'UnlimitedSet', data: { unlimited: true, actor: 'ops@example.com', reason: 'partner account' } }]),
  );
  t.test('SetUnlimited(false) on a limited account is a no-op', given(history).when(setUnlimited(false)).then([]));
  t.test(
    'SetUnlimited needs an actor',
    given(history).when(setUnlimited(true, '')).thenThrows('invalid_request', /actor/),
  );
  t.test(
    'SetUnlimited needs a reason',
    given(history)
      .when(setUnlimited(true, 'ops', ''))
      .thenThrows('invalid_request', /reason/),
  );
});

t.test('when the account has keys', async (t) => {
  const history: AccountEvent[] = [opened(), keyIssued('key_1'), keyIssued('key_2', 'sk_live_second', ['audits:read'])];
  t.test('issuing the same key again (a retry) is a no-op', given(history).when(issue('key_1')).then([]));
  t.test(
    'the same key id for another key is refused',
    given(history)
      .when(issue('key_1', 'sk_live_other'))
      .thenThrows('invalid_request', /key_1 already exists/),
  );
  t.test(
    'the same key id with other scopes is refused',
    given(history)
      .when(issue('key_1', 'sk_live_key_1', ['audits:read']))
      .thenThrows('invalid_request', /already exists/),
  );
  t.test(
    'another id with the same key hash is refused',
    given(history)
      .when(issue('key_3', 'sk_live_key_1'))
      .thenThrows('invalid_request', /same hash|this hash/),
  );
  t.test(
    'a third key is issued',
    given(history)
      .when(issue('key_3'))
      .then([keyIssued('key_3')]),
  );
  t.test(
    'RevokeApiKey revokes it',
    given(history)
      .when(revoke('key_1'))
      .then([{ type: 'ApiKeyRevoked', data: { keyId: 'key_1' } }]),
  );

  const revoked: AccountEvent[] = [...history, { type: 'ApiKeyRevoked', data: { keyId: 'key_1' } }];
  t.test('revoking a revoked key is a no-op', given(revoked).when(revoke('key_1')).then([]));
  t.test(
    'the other key can still be revoked',
    given(revoked)
      .when(revoke('key_2'))
      .then([{ type: 'ApiKeyRevoked', data: { keyId: 'key_2' } }]),
  );

  t.test('state keeps keys by id with hash, scopes and revoked', async (t) => {
    const state = revoked.reduce(accountDecider.evolve, accountDecider.initialState());
    t.equal(state.status, 'Open');
    if (state.status !== 'Open') return;
    t.strictSame(state.keys, {
      key_1: {
        keyHash: hashOf('sk_live_key_1'),
        keyPrefix: 'sk_live_',
        scopes: ['audits:read', 'audits:write'],
        revoked: true,
      },
      key_2: { keyHash: hashOf('sk_live_second'), keyPrefix: 'sk_live_', scopes: ['audits:read'], revoked: false },
    });
    t.equal(state.webhookSecretRef, WEBHOOK_SECRET_REF, 'one webhook secret for the account, whatever the key');
    t.equal(state.sealedEmail, SEALED_EMAIL);
    t.equal(state.erased, false);
    t.equal(state.role, 'user');
  });
});

t.test('erasure of personal data', async (t) => {
  const erase = (actor = 'dpo', reason = 'request of the person'): AccountCommand => ({
    type: 'ErasePersonalData',
    data: { actor, reason },
  });
  const erased: AccountEvent = { type: 'PersonalDataErased', data: { actor: 'dpo', reason: 'request of the person' } };
  t.test('ErasePersonalData records the erasure', given([opened()]).when(erase()).then([erased]));
  t.test('a second one records nothing', given([opened(), erased]).when(erase()).then([]));
  t.test('it needs an actor', given([opened()]).when(erase(' ')).thenThrows('invalid_request', /actor/));
  t.test('not on an account that does not exist', given([]).when(erase()).thenThrows('not_found', 'account not found'));
  t.test(
    'credits move as before after it: the ledger does not depend on personal data',
    given([opened(), erased])
      .when(purchase('pay_1', 3))
      .then([{ type: 'CreditsPurchased', data: { paymentId: 'pay_1', credits: 3 } }]),
  );
});

t.test('when the account is unlimited', async (t) => {
  t.test(
    'SetUnlimited(true) again is a no-op',
    given([opened({ unlimited: true })])
      .when(setUnlimited(true))
      .then([]),
  );
  t.test(
    'SetUnlimited(false) makes a user account pay again',
    given([opened({ unlimited: true })])
      .when(setUnlimited(false))
      .then([
        { type: 'UnlimitedSet', data: { unlimited: false, actor: 'ops@example.com', reason: 'partner account' } },
      ]),
  );
  t.test(
    'SetUnlimited(false) on an administrator is refused',
    given([opened({ role: 'admin', unlimited: true })])
      .when(setUnlimited(false))
      .thenThrows('invalid_request', /administrator/),
  );
});

t.test('evolve ignores what does not fit (replay never throws)', async (t) => {
  const { evolve, initialState } = accountDecider;
  t.strictSame(evolve(initialState(), keyIssued('key_1')), { status: 'NotOpened' }, 'an event before AccountOpened');
  const state = evolve(initialState(), opened());
  t.equal(evolve(state, opened({ role: 'admin' })), state, 'a second AccountOpened');
  t.equal(evolve(state, { type: 'ApiKeyRevoked', data: { keyId: 'nope' } }), state, 'a revocation of an unknown key');
});
