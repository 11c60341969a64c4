import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { PinnedRequestError, requestPinned } from '../../../infra/http/pinnedRequest.ts';
import { repoRoot } from '../../../infra/local/kafkaJars.ts';

const targetAt = (address: string, family: 4 | 6) => ({
  url: new URL('https://hook.test/receive'),
  hostname: 'hook.test',
  address,
  family,
  addresses: [{ address, family }],
});

// A connect() the kernel refuses at once used to emit 'error' on the TLS socket before the request
// listened for it, killing the whole process (issue 22, finding 1). Both cases below crashed then.

t.test('a connect that fails at once is a rejected request, not a crash', async (t) => {
  // TCP to a multicast address: the kernel answers ENETUNREACH inside connect().
  const error = await requestPinned(targetAt('224.0.0.1', 4), { method: 'POST', body: '{}', timeoutMs: 5000 }).then(
    () => null,
    (e: unknown) => e,
  );
  t.ok(error instanceof PinnedRequestError, 'a PinnedRequestError');
  t.equal((error as PinnedRequestError).kind, 'network');
  t.match((error as PinnedRequestError).message, /ENETUNREACH/);
});

t.test('an IPv6 address without a route, in a network namespace made for the test', async (t) => {
  const run = spawnSync(
    'unshare',
    [
      '-n',
      join(repoRoot, 'node_modules', '.bin', 'tsx'),
      join(repoRoot, 'test/fixtures/http/pinnedConnectFails.ts'),
      '::1',
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  t.equal(run.status, 0, `the process lives on (stderr: ${run.stderr.slice(0, 400)})`);
  const outcome = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
  t.equal(outcome.outcome, 'rejected');
  t.equal(outcome.kind, 'network');
  t.match(String(outcome.message), /ENETUNREACH|EADDRNOTAVAIL/);
});
