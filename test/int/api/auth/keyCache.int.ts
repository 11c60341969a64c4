import t from 'tap';
import { createLogger } from '../../../../infra/logger.ts';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import { createAccount, revokeKey } from '../../../../services/admin/operations.ts';
import { hashApiKey } from '../../../../services/api/auth/apiKeys.ts';
import { createKeyCache } from '../../../../services/api/auth/keyCache.ts';
import { eventually, testDatabase } from '../../../helpers/db.ts';

/** The real pool, its queries and answers counted; while `hold` is set, each answer waits for it. */
const heldPool = (pool: Pool) => {
  const state = { reads: 0, answered: 0, hold: null as Promise<void> | null, pool };
  state.pool = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Pool['query']>) => {
        state.reads++;
        const r = await (target.query as (...x: unknown[]) => Promise<unknown>)(...args);
        state.answered++;
        if (state.hold) await state.hold;
        return r;
      };
    },
  }) as Pool;
  return state;
};

const turn = () => new Promise((r) => setImmediate(r));

/**
 * services/api/auth/keyCache.ts: a key read while its revocation commits (the read saw it valid,
 * the NOTIFY came before the read's answer) is not kept valid: the next request reads it again.
 */
t.test('a lookup overtaken by a revocation is not cached', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'race@example.com' });
  const hash = hashApiKey(a.apiKey);
  // The real pool; its key lookups can be held after the database answered.
  const held = heldPool(pool);
  const keys = createKeyCache(held.pool, createLogger('test-keys', 'error'));
  t.teardown(() => keys.close());
  // Once listening, the second find is a hit.
  await eventually(
    async () => {
      await keys.find(hash);
      const n = held.reads;
      await keys.find(hash);
      return held.reads === n;
    },
    5_000,
    'the cache listening',
  );
  // Dropped by an unrelated notification, then a lookup that the revocation overtakes.
  let open!: () => void;
  held.hold = new Promise((r) => (open = r));
  await pool.query(`SELECT pg_notify('api_keys_changed', 'other')`);
  await new Promise((r) => setTimeout(r, 300));
  const answered = held.answered;
  const slow = keys.find(hash);
  // The read has its answer (the key valid) before the revocation commits: reads go out together a
  // turn later (coalescedReads.ts), so under load a revocation started at once could come first.
  await eventually(async () => held.answered > answered, 5_000, 'the held read answered');
  await revokeKey(pool, { keyId: a.keyId });
  await new Promise((r) => setTimeout(r, 300)); // the revocation's NOTIFY arrives meanwhile
  held.hold = null;
  open();
  const seen = await slow;
  t.equal(seen?.revoked, false, 'the held read saw the key before its revocation');
  t.equal((await keys.find(hash))?.revoked, true, 'the next lookup reads the revocation: the stale key was not kept');
});

t.test('requests missing on one key at once share one read; one after a notification reads again', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'listen@example.com' });
  const b = await createAccount(pool, { email: 'burst@example.com' });
  let open!: () => void;
  const held = heldPool(pool);
  const keys = createKeyCache(held.pool, createLogger('test-keys', 'error'));
  t.teardown(() => keys.close());
  // Listening once a's lookup is cached (its second find is a hit).
  await eventually(
    async () => {
      await keys.find(hashApiKey(a.apiKey));
      const n = held.reads;
      await keys.find(hashApiKey(a.apiKey));
      return held.reads === n;
    },
    5_000,
    'the cache listening',
  );
  // b's key was never looked up: a burst of requests on it, its read held.
  const hash = hashApiKey(b.apiKey);
  held.hold = new Promise((r) => (open = r));
  const before = held.reads;
  const burst = Array.from({ length: 5 }, () => keys.find(hash));
  await turn(); // reads go out together at the end of the event loop's turn (coalescedReads)
  t.equal(held.reads - before, 1, 'five requests at once, one read');
  await pool.query(`SELECT pg_notify('api_keys_changed', 'other')`);
  // A request after the notification does not join the read it may have overtaken.
  const late: Promise<unknown>[] = [];
  await eventually(
    async () => {
      const n = held.reads;
      late.push(keys.find(hash));
      await turn();
      return held.reads > n;
    },
    5_000,
    'a new read after the notification',
  );
  held.hold = null;
  open();
  for (const owner of await Promise.all(burst)) t.equal(owner?.keyId, b.keyId);
  await Promise.all(late);
});

t.test('misses on different keys at once share one statement, each answered with its own key', async (t) => {
  const { pool } = await testDatabase(t);
  const owners = await Promise.all(
    Array.from({ length: 6 }, (_, i) => createAccount(pool, { email: `many${i}@example.com` })),
  );
  const held = heldPool(pool);
  const keys = createKeyCache(held.pool, createLogger('test-keys', 'error'));
  t.teardown(() => keys.close());
  await eventually(
    async () => {
      await keys.find(hashApiKey(owners[0]!.apiKey));
      const n = held.reads;
      await keys.find(hashApiKey(owners[0]!.apiKey));
      return held.reads === n;
    },
    5_000,
    'the cache listening',
  );
  const before = held.reads;
  const rest = owners.slice(1);
  const found = await Promise.all([...rest.map((o) => keys.find(hashApiKey(o.apiKey))), keys.find('0'.repeat(64))]);
  t.equal(held.reads - before, 1, 'five keys and an unknown one, one statement');
  t.same(
    found.map((o) => o?.accountId ?? null),
    [...rest.map((o) => o.accountId), null],
  );
});
