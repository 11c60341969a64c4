import t from 'tap';
import { createLogger } from '../../../../infra/logger.ts';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { createAccount, revokeKey } from '../../../../services/admin/operations.ts';
import { hashApiKey } from '../../../../services/api/auth/apiKeys.ts';
import { createKeyCache } from '../../../../services/api/auth/keyCache.ts';
import { eventually, testDatabase } from '../../../helpers/db.ts';

/**
 * services/api/auth/keyCache.ts: a key read while its revocation commits (the read saw it valid,
 * the NOTIFY came before the read's answer) is not kept valid: the next request reads it again.
 */
t.test('a lookup overtaken by a revocation is not cached', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'race@example.com' });
  const hash = hashApiKey(a.apiKey);
  let hold: Promise<void> | null = null;
  let reads = 0;
  // The real pool; its key lookups can be held after the database answered.
  const held = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Pool['query']>) => {
        reads++;
        const r = await (target.query as (...x: unknown[]) => Promise<unknown>)(...args);
        if (hold) await hold;
        return r;
      };
    },
  }) as Pool;
  const keys = createKeyCache(held, createLogger('test-keys', 'error'));
  t.teardown(() => keys.close());
  // Once listening, the second find is a hit.
  await eventually(
    async () => {
      await keys.find(hash);
      const n = reads;
      await keys.find(hash);
      return reads === n;
    },
    5_000,
    'the cache listening',
  );
  // Dropped by an unrelated notification, then a lookup that the revocation overtakes.
  let open!: () => void;
  hold = new Promise((r) => (open = r));
  await pool.query(`SELECT pg_notify('api_keys_changed', 'other')`);
  await new Promise((r) => setTimeout(r, 300));
  const slow = keys.find(hash);
  await revokeKey(pool, { keyId: a.keyId });
  await new Promise((r) => setTimeout(r, 300)); // the revocation's NOTIFY arrives meanwhile
  hold = null;
  open();
  const seen = await slow;
  t.equal(seen?.revoked, false, 'the held read saw the key before its revocation');
  t.equal((await keys.find(hash))?.revoked, true, 'the next lookup reads the revocation: the stale key was not kept');
});
