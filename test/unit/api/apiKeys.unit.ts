import t from 'tap';
import { createHash } from 'node:crypto';
import { ACCESS } from '../../../services/api/auth/access.ts';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from '../../../services/api/auth/apiKeys.ts';
import {
  newAccountId,
  newAdjustmentId,
  newKeyId,
  newPaymentId,
  newWebhookSecret,
} from '../../../services/admin/ids.ts';

t.test('API keys: recognisable prefix, 32 random bytes, stored as SHA-256 only', async (t) => {
  const keys = Array.from({ length: 200 }, generateApiKey);
  for (const k of keys.slice(0, 5)) {
    t.match(k.apiKey, /^ask_[A-Za-z0-9_-]{43}$/);
    t.equal(Buffer.from(k.apiKey.slice(API_KEY_PREFIX.length), 'base64url').length, 32);
    t.equal(k.keyHash, createHash('sha256').update(k.apiKey).digest('hex'));
    t.equal(k.keyHash, hashApiKey(k.apiKey));
    t.equal(k.keyPrefix, k.apiKey.slice(0, 12));
    t.notOk(k.keyHash.includes(k.apiKey.slice(4)), 'the hash does not contain the key');
  }
  t.equal(new Set(keys.map((k) => k.apiKey)).size, keys.length, 'no two alike');
});

t.test('ids carry their prefixes', async (t) => {
  t.match(newAccountId(), /^usr_[a-z2-7]{26}$/);
  t.match(newKeyId(), /^key_[a-z2-7]{26}$/);
  t.match(newPaymentId(), /^pay_[a-z2-7]{26}$/);
  t.match(newAdjustmentId(), /^adj_[a-z2-7]{26}$/);
  t.match(newWebhookSecret(), /^whsec_[0-9a-f]{64}$/);
});

t.test('the scope table: spec 5.4 as written, and the decided endpoints', async (t) => {
  const read = [
    'GET /audits',
    'GET /audits/:id',
    'GET /audits/:id/apply/items',
    'GET /audits/:id/apply/:revisionId',
  ] as const;
  const write = [
    'POST /audits',
    'POST /audits/bulk',
    'POST /audits/:id/share',
    'DELETE /audits/:id/share',
    'POST /audits/bulk/:id/cancel',
    'POST /audits/:id/apply',
  ] as const;
  for (const r of read) t.equal(ACCESS[r], 'audits:read', r);
  for (const w of write) t.equal(ACCESS[w], 'audits:write', w);
  t.same(
    {
      me: ACCESS['GET /me'],
      projects: ACCESS['GET /projects'],
      usage: ACCESS['GET /credits/usage'],
      bulk: ACCESS['GET /audits/bulk/:id'],
    },
    { me: 'anyKey', projects: 'audits:read', usage: 'audits:read', bulk: 'audits:read' },
  );
});
