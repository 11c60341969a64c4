import t from 'tap';
import { ACCESS } from '../../../services/api/auth/access.ts';
import { hashApiKey } from '../../../services/api/auth/apiKeys.ts';
import { createAccount, createKey, revokeKey } from '../../../services/admin/operations.ts';
import { apiFixture, bearer } from './fixtures/app.ts';

/** Spec 5: bearer keys, stored as hashes, 401 invalid_api_key, 403 insufficient_scope, the scope table. */
t.test('authentication and scopes', async (t) => {
  const f = await apiFixture(t);
  const account = await createAccount(f.pool, { email: 'auth@example.com' });
  const readOnly = await createKey(f.pool, { accountId: account.accountId, scopes: ['audits:read'] });
  const writeOnly = await createKey(f.pool, { accountId: account.accountId, scopes: ['audits:write'] });

  const get = (url: string, headers: Record<string, string> = {}) => f.app.inject({ method: 'GET', url, headers });
  const post = (url: string, headers: Record<string, string> = {}) => f.app.inject({ method: 'POST', url, headers });

  t.test('401 invalid_api_key: missing, malformed, unknown and revoked keys', async (t) => {
    const cases: [string, Record<string, string>, string][] = [
      ['no header', {}, 'Missing API key: send Authorization: Bearer <API_KEY>'],
      [
        'another scheme',
        { authorization: `Basic ${account.apiKey}` },
        'Malformed Authorization header: expected Bearer <API_KEY>',
      ],
      [
        'bearer without a key',
        { authorization: 'Bearer ' },
        'Malformed Authorization header: expected Bearer <API_KEY>',
      ],
      ['unknown key', bearer('ask_' + 'A'.repeat(43)), 'Invalid or revoked API key'],
      ['the hash instead of the key', bearer(hashApiKey(account.apiKey)), 'Invalid or revoked API key'],
    ];
    for (const [what, headers, message] of cases) {
      for (const url of ['/api/v1/me', '/api/v1/credits/usage']) {
        const res = await get(url, headers);
        t.equal(res.statusCode, 401, `${what} ${url}`);
        t.same(
          res.json().error,
          { code: 'invalid_api_key', message, requestId: res.headers['x-request-id'] },
          `${what} ${url}`,
        );
      }
    }
    const lowerCase = await get('/api/v1/me', { authorization: `bearer ${account.apiKey}` });
    t.equal(lowerCase.statusCode, 200, 'the scheme is case-insensitive (RFC 7235)');
  });

  t.test('revocation takes effect within a second; other keys of the account keep working', async (t) => {
    const doomed = await createKey(f.pool, { accountId: account.accountId, scopes: ['audits:read', 'audits:write'] });
    t.equal((await get('/api/v1/me', bearer(doomed.apiKey))).statusCode, 200, 'a new key works at once');
    t.equal((await get('/api/v1/me', bearer(doomed.apiKey))).statusCode, 200, 'and again (now cached)');
    await revokeKey(f.pool, { keyId: doomed.keyId });
    const revokedAt = Date.now();
    let res = await get('/api/v1/me', bearer(doomed.apiKey));
    while (res.statusCode === 200 && Date.now() - revokedAt < 5_000)
      res = await get('/api/v1/me', bearer(doomed.apiKey));
    t.ok(
      Date.now() - revokedAt <= 1_000,
      `refused ${Date.now() - revokedAt} ms after the revocation committed (the key cache hears its NOTIFY)`,
    );
    t.equal(res.statusCode, 401);
    t.equal(res.json().error.message, 'Invalid or revoked API key');
    t.equal((await get('/api/v1/me', bearer(account.apiKey))).statusCode, 200);
  });

  t.test('keys are stored only as SHA-256 hashes', async (t) => {
    const r = await f.pool.query('SELECT key_hash, key_prefix FROM api_keys WHERE key_id = $1', [account.keyId]);
    t.equal(r.rows[0].key_hash, hashApiKey(account.apiKey));
    t.match(account.apiKey, /^ask_[A-Za-z0-9_-]{43}$/, 'ask_ and 32 random bytes');
    t.equal(r.rows[0].key_prefix, account.apiKey.slice(0, 12));
    const anywhere = await f.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE payload::text LIKE '%' || $1 || '%'`,
      [account.apiKey.slice(4)],
    );
    t.equal(anywhere.rows[0].n, 0, 'the key itself is in no event');
  });

  t.test('the scope table (spec 5.4 and the decided endpoints)', async (t) => {
    // [method, url, access, the scope table entry it stands for]
    const routes: [string, string, string][] = [
      ['GET', '/api/v1/me', ACCESS['GET /me']],
      ['GET', '/api/v1/credits/usage', ACCESS['GET /credits/usage']],
      ['GET', '/api/v1/test/poll', 'audits:read'],
      ['POST', '/api/v1/test/submit', 'audits:write'],
      ['POST', '/api/v1/test/share', 'audits:write'],
      ['DELETE', '/api/v1/test/share', 'audits:write'],
      ['POST', '/api/v1/test/apply', 'audits:write'],
      ['POST', '/api/v1/test/cancel', 'audits:write'],
    ];
    t.equal(ACCESS['GET /me'], 'anyKey');
    t.equal(ACCESS['GET /credits/usage'], 'audits:read');
    t.equal(ACCESS['GET /projects'], 'audits:read');
    t.equal(ACCESS['GET /audits/bulk/:id'], 'audits:read');
    const keys = { both: account.apiKey, read: readOnly.apiKey, write: writeOnly.apiKey };
    for (const [method, url, access] of routes) {
      for (const [name, key] of Object.entries(keys)) {
        const res = await f.app.inject({ method: method as 'GET', url, headers: bearer(key) });
        const allowed =
          access === 'anyKey' ||
          name === 'both' ||
          (name === 'read' ? access === 'audits:read' : access === 'audits:write');
        if (allowed) {
          t.equal(res.statusCode, 200, `${method} ${url} with a ${name} key`);
        } else {
          t.equal(res.statusCode, 403, `${method} ${url} with a ${name} key`);
          t.same(res.json().error, {
            code: 'insufficient_scope',
            message: `This API key lacks the ${access} scope`,
            requestId: res.headers['x-request-id'],
            requiredScope: access,
          });
        }
      }
    }
  });

  t.test('webhookSecret only for keys with audits:write, the same for every key of the account', async (t) => {
    const both = (await get('/api/v1/me', bearer(account.apiKey))).json();
    const w = (await get('/api/v1/me', bearer(writeOnly.apiKey))).json();
    const r = (await get('/api/v1/me', bearer(readOnly.apiKey))).json();
    t.equal(both.apiKey.webhookSecret, account.webhookSecret);
    t.equal(w.apiKey.webhookSecret, account.webhookSecret);
    t.notOk('webhookSecret' in r.apiKey, 'absent, not null, for a read-only key');
    t.same(r.apiKey, { id: readOnly.keyId, scopes: ['audits:read'] });
    t.same(w.apiKey.scopes, ['audits:write']);
  });

  t.test('POST routes: the 403 comes before the body is looked at', async (t) => {
    const res = await post('/api/v1/test/submit', { ...bearer(readOnly.apiKey), 'content-type': 'application/json' });
    t.equal(res.statusCode, 403);
  });
});
