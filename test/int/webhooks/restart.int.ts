import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { webhookStreamId } from '../../../events/webhook/events.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { admin as runAdmin } from '../../helpers/adminCli.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startWebhookReceiver, testCaPath } from '../../helpers/webhookReceiver.ts';
import { finishedAudit } from './finishedAudit.ts';
import { verifyFromSpec } from './verify.ts';
import { sleep } from '../../../core/sleep.ts';
import { withTestKey } from '../../helpers/testKey.ts';

/**
 * `npm start` with ROLES=webhooks in a process of its own, on the embedded log, trusting the test
 * certificate the standard Node way (NODE_EXTRA_CA_CERTS), with a 2 s lease so a dead worker's
 * delivery is taken over quickly.
 */
function startWebhooksProcess(t: Test, databaseUrl: string): { child: ChildProcess; ready: Promise<void> } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ROLES: 'webhooks',
    LOG_LEVEL: 'error',
    ALLOW_PRIVATE_ADDRESSES: '1',
    WEBHOOK_LEASE_SECONDS: '2',
    NODE_EXTRA_CA_CERTS: testCaPath,
  };
  delete env.KAFKA_BROKERS;
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: withTestKey(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return {
    child,
    ready: eventually(async () => out.includes('audit service running'), 90_000, 'the webhooks process to start'),
  };
}

const kill = async (child: ChildProcess) => {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
};

const types = async (pool: Pool, jobId: string) => (await readStream(pool, webhookStreamId(jobId))).map((e) => e.type);
const attemptsOf = async (pool: Pool, jobId: string) =>
  (await readStream(pool, webhookStreamId(jobId)))
    .filter((e) => e.type === 'WebhookAttempted')
    .map((e) => e.payload as { attempt: number; status: number | null });
/** `npm run -s admin -- ...` on the test's database, on the embedded log. */
const admin = (databaseUrl: string, ...args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' };
  delete env.KAFKA_BROKERS;
  return runAdmin(env, ...args);
};

t.test(
  'the webhooks process SIGKILLed after a failed attempt: a new one resumes with attempt 2, nothing lost, nothing after the 2xx',
  async (t) => {
    const { pool, url } = await testDatabase(t);
    const receiver = await startWebhookReceiver(t);
    const account = await createAccount(pool, { email: 'restart@example.com', credits: 1 });

    const first = startWebhooksProcess(t, url);
    await first.ready;
    const { jobId } = await finishedAudit(pool, account.accountId, {
      webhookUrl: receiver.script('/restart', [500, 200]),
      outcome: 'completed',
    });
    await eventually(async () => receiver.requestsTo('/restart').length === 1, 60_000, 'the first attempt');
    // Polled tightly: the kill must land inside the 1 s pause before attempt 2.
    while ((await attemptsOf(pool, jobId!)).length === 0) await sleep(5);
    await kill(first.child);
    t.equal(receiver.requestsTo('/restart').length, 1, 'killed after one attempt');
    t.same(
      await types(pool, jobId!),
      ['WebhookScheduled', 'WebhookAttempted'],
      'the failed attempt is recorded, the delivery open',
    );
    await sleep(1500);
    t.equal(receiver.requestsTo('/restart').length, 1, 'nobody sends while no worker runs');

    const second = startWebhooksProcess(t, url);
    await second.ready;
    await eventually(
      async () => (await types(pool, jobId!)).includes('WebhookDelivered'),
      60_000,
      'the delivery to finish after the restart',
    );
    const rs = receiver.requestsTo('/restart');
    t.equal(rs.length, 2, 'attempt 2 went out once');
    t.same(
      rs.map((r) => r.headers['x-service-delivery']),
      [jobId, jobId],
      'the same X-Service-Delivery across the restart',
    );
    for (const r of rs) t.equal(verifyFromSpec(r, account.webhookSecret), null, 'signed');
    t.same(
      (await attemptsOf(pool, jobId!)).map((a) => [a.attempt, a.status]),
      [
        [1, 500],
        [2, 200],
      ],
    );

    // Another restart after the 2xx was recorded sends nothing more.
    await kill(second.child);
    const third = startWebhooksProcess(t, url);
    await third.ready;
    await sleep(4000);
    t.equal(receiver.requestsTo('/restart').length, 2, 'nothing is sent after the recorded 2xx');

    const listed = await admin(url, 'webhooks', 'list', '--job', jobId!);
    t.equal(listed.code, 0, JSON.stringify(listed.stderr));
    t.match(listed.json, {
      jobId,
      event: 'audit.completed',
      status: 'delivered',
      reason: null,
      attempts: [
        { attempt: 1, status: 500, error: null, retryInMs: 1000 },
        { attempt: 2, status: 200, retryInMs: null },
      ],
    });
    const unknown = await admin(url, 'webhooks', 'list', '--job', 'job_unknown');
    t.equal(unknown.code, 1);
    t.match(unknown.stderr, { error: { code: 'not_found' } });
    await kill(third.child);
  },
);

t.test(
  'the webhooks process SIGKILLed while the receiver holds an attempt: the attempt is sent again, never lost',
  async (t) => {
    const { pool, url } = await testDatabase(t);
    const receiver = await startWebhookReceiver(t);
    const account = await createAccount(pool, { email: 'inflight@example.com', credits: 1 });

    const first = startWebhooksProcess(t, url);
    await first.ready;
    const { jobId } = await finishedAudit(pool, account.accountId, {
      webhookUrl: receiver.script('/inflight', ['hang', 200]),
      outcome: 'failed',
    });
    await eventually(
      async () => receiver.requestsTo('/inflight').length === 1,
      30_000,
      'the attempt to reach the receiver',
    );
    await kill(first.child);
    t.same(await types(pool, jobId!), ['WebhookScheduled'], 'the attempt in flight was not recorded');

    const second = startWebhooksProcess(t, url);
    await second.ready;
    await eventually(
      async () => (await types(pool, jobId!)).includes('WebhookDelivered'),
      60_000,
      'the delivery to finish after the restart',
    );
    const rs = receiver.requestsTo('/inflight');
    t.equal(rs.length, 2, 'the interrupted attempt was sent again');
    t.same(
      rs.map((r) => r.headers['x-service-delivery']),
      [jobId, jobId],
      'with the same X-Service-Delivery, so the receiver can drop a duplicate',
    );
    t.same(
      (await attemptsOf(pool, jobId!)).map((a) => [a.attempt, a.status]),
      [[1, 200]],
      'recorded as attempt 1, delivered',
    );
    await kill(second.child);
  },
);
