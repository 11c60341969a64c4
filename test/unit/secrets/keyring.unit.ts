import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretHashOf } from '../../../core/secretHash.ts';
import { isSealed, keyringOf, openKeyring, openWithKey, sealWithKey } from '../../../infra/secrets/keyring.ts';
import { loadSecretsSettings } from '../../../infra/secrets/settings.ts';
import { linkToken, shareTokenFor } from '../../../infra/secrets/shareTokens.ts';
import { SHARE_TOKEN_PATTERN } from '../../../services/share/links.ts';

t.test('sealing: opens with the same key and context only; every seal differs', async (t) => {
  const key = randomBytes(32);
  const a = sealWithKey(key, Buffer.from('owner@example.com'), 'personal:usr_1');
  t.ok(isSealed(a), 'enc:v1:...');
  t.notOk(a.includes('owner'), 'no clear text in the ciphertext');
  t.equal(openWithKey(key, a, 'personal:usr_1')?.toString(), 'owner@example.com');
  t.equal(openWithKey(key, a, 'personal:usr_2'), null, 'moved to another account, it does not open');
  t.equal(openWithKey(randomBytes(32), a, 'personal:usr_1'), null, 'another key: nothing');
  t.not(sealWithKey(key, Buffer.from('x'), 'c'), sealWithKey(key, Buffer.from('x'), 'c'), 'random IV');
  const flipped = a.slice(0, -2) + (a.at(-2) === 'A' ? 'B' : 'A') + a.at(-1);
  t.equal(openWithKey(key, flipped, 'personal:usr_1'), null, 'a changed ciphertext does not open');
});

t.test('the keyring keeps its purposes apart', async (t) => {
  const k = keyringOf(randomBytes(32));
  const sealed = k.seal('webhook-secret', Buffer.from('whsec_x'), 'usr_1');
  t.equal(k.open('webhook-secret', sealed, 'usr_1')?.toString(), 'whsec_x');
  t.equal(k.open('data-key-wrap', sealed, 'usr_1'), null, 'a webhook-secret ciphertext is no data key');
  t.not(k.mac('share-token', 'x').toString('hex'), k.mac('legacy-share-token', 'x').toString('hex'));
});

t.test('share tokens: derived, unguessable shape, one per issue, checked against the hash in the log', async (t) => {
  const first = shareTokenFor('share-aud_1', 1);
  t.match(first, SHARE_TOKEN_PATTERN, '32 base64url characters, as before');
  t.equal(shareTokenFor('share-aud_1', 1), first, 'the same link gives the same token again');
  t.not(shareTokenFor('share-aud_1', 2), first, 'a new issue (after a revocation) is a new address');
  t.not(shareTokenFor('share-aud_2', 1), first, 'another audit, another address');
  t.equal(linkToken('share-aud_1', 1, secretHashOf(first), null), first);
  t.equal(
    linkToken('share-aud_1', 1, secretHashOf('a legacy token'), null),
    null,
    'an old random token is not derivable',
  );
});

t.test('settings: a given key, a bad one, and the embedded default generated once', async (t) => {
  const problems: string[] = [];
  const hex = randomBytes(32).toString('hex');
  t.same(loadSecretsSettings({ SECRETS_MASTER_KEY: hex }, problems).masterKey, Buffer.from(hex, 'hex'));
  t.same(
    loadSecretsSettings({ SECRETS_MASTER_KEY: Buffer.from(hex, 'hex').toString('base64') }, problems).masterKey,
    Buffer.from(hex, 'hex'),
    'base64 too',
  );
  t.same(problems, []);
  loadSecretsSettings({ SECRETS_MASTER_KEY: 'short' }, problems);
  loadSecretsSettings({ NODE_ENV: 'production' }, problems);
  t.match(problems, [/32 bytes/, /required when NODE_ENV=production/]);

  const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  const settings = loadSecretsSettings({ DATA_DIR: dir }, []);
  const one = openKeyring(settings);
  const stored = readFileSync(join(dir, 'secrets', 'master.key'), 'utf8');
  t.match(stored, /^[0-9a-f]{64}\n$/, 'kept under the data dir');
  t.equal(statSync(join(dir, 'secrets', 'master.key')).mode & 0o777, 0o600, 'readable by its owner only');
  const two = openKeyring(settings);
  t.equal(two.mac('share-token', 'x').toString('hex'), one.mac('share-token', 'x').toString('hex'), 'and reused');
});
