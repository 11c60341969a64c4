import t from 'tap';
import { createAccount, revokeKey } from '../../../services/admin/operations.ts';
import { apiFixture, bearer, DEFAULT_LIMITS } from './fixtures/app.ts';
import { startApiProcesses } from './fixtures/serverChildren.ts';

/**
 * Keys are cached in each API process (services/api/auth/keyCache.ts); a revocation must still
 * stop the key within a second in every process, whichever one served it a moment before.
 */
t.test('a revoked key stops working within a second in every API process', async (t) => {
  const f = await apiFixture(t);
  const a = await createAccount(f.pool, { email: 'revoke@example.com' });
  const limits = { ...DEFAULT_LIMITS, read: 100_000 };
  const ports = await startApiProcesses(t, f.url, limits);
  const status = async (port: number) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/me`, { headers: bearer(a.apiKey) });
    await res.arrayBuffer();
    return res.status;
  };
  // Both processes have served (and cached) the key, again and again.
  for (let i = 0; i < 20; i++) for (const port of ports) t.equal(await status(port), 200);

  await revokeKey(f.pool, { keyId: a.keyId });
  const revokedAt = Date.now();
  const stoppedAfter: number[] = [];
  await Promise.all(
    ports.map(async (port, i) => {
      while ((await status(port)) !== 401) {
        if (Date.now() - revokedAt > 5_000) break;
      }
      stoppedAfter[i] = Date.now() - revokedAt;
    }),
  );
  for (const [i, ms] of stoppedAfter.entries())
    t.ok(ms <= 1_000, `process ${i}: 401 ${ms} ms after the revocation committed`);
  for (const port of ports) t.equal(await status(port), 401, 'and it stays revoked');
});
