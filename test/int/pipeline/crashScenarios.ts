import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { accountStreamId } from '../../../events/account/index.ts';
import { auditStreamId } from '../../../events/audit/events.ts';
import { loadConfig } from '../../../infra/config.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import { createLogger } from '../../../infra/logger.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { auditsProjection } from '../../../projections/audits/projection.ts';
import { startProjections } from '../../../projections/runner.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { submitAudit } from '../../../services/pipeline/submitAudit.ts';
import { startPipelineRoles } from '../../../services/pipeline/roles.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { servePages } from '../../helpers/pageServer.ts';
import { makeSubscriber, type AdapterKind } from '../../helpers/subscribers.ts';
import { internalErrorMessage } from '../../../services/pipeline/outcome.ts';
import { testLog } from '../../helpers/testLog.ts';

const article = readFileSync(
  new URL('../../fixtures/engine/strong/en-listicle-running-shoes.html', import.meta.url),
  'utf8',
);

function startChild(
  t: Test,
  kind: AdapterKind,
  url: string,
  kafkaJson?: string,
): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/helpers/pipelineChild.ts', kind, url, ...(kafkaJson ? [kafkaJson] : [])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return { child, ready: eventually(async () => out.includes('READY'), 60_000, 'the pipeline child to start') };
}

const kill = async (child: ChildProcess) => {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
};

async function charges(pool: Pool, accountId: string, auditId: string): Promise<number> {
  return (await readStream(pool, accountStreamId(accountId))).filter(
    (e) => e.type === 'CreditCharged' && (e.payload as { subjectId: string }).subjectId === auditId,
  ).length;
}

export function crashScenario(kind: AdapterKind): void {
  t.test(
    `${kind}: a pipeline process killed mid-audit and restarted: every job ends, none is charged twice`,
    async (t) => {
      const { pool, url } = await testDatabase(t);
      const { kafkaSettings } = await testLog(t, kind, pool);
      const kafkaJson = kafkaSettings ? JSON.stringify(kafkaSettings) : undefined;
      const projSubscriber = makeSubscriber(kind, pool, kafkaSettings);
      t.teardown(() => projSubscriber.close());
      await startProjections(pool, projSubscriber, [auditsProjection]);

      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const web = await servePages(t, { '/held': { body: article, hold: held }, '/article': { body: article } });
      const account = await createAccount(pool, { email: 'crash@example.com', credits: 20 });
      const submit = (path: string) =>
        submitAudit(pool, {
          accountId: account.accountId,
          source: 'api',
          idempotencyKey: null,
          bulkId: null,
          now: new Date(),
          correlationId: null,
          request: {
            url: `${web.base}${path}`,
            content: null,
            title: null,
            keyword: 'running shoes',
            language: null,
            project: null,
            share: false,
            shareExpiresInDays: null,
            webhookUrl: null,
          },
        });

      // 1. Killed while its fetch is in flight.
      const first = startChild(t, kind, url, kafkaJson);
      await first.ready;
      const heldAudit = await submit('/held');
      // The start commits while the page is fetched (fetchStep.ts): both, then the kill.
      await eventually(
        async () =>
          (web.hits.get('/held') ?? 0) > 0 &&
          (await readStream(pool, auditStreamId(heldAudit.auditId))).some((e) => e.type === 'AuditStarted'),
        60_000,
        'the child to be fetching, the audit running',
      );
      await kill(first.child);
      const states = (await readStream(pool, auditStreamId(heldAudit.auditId))).map((e) => e.type);
      t.same(states, ['AuditRequested', 'AuditStarted'], 'the job was running when its worker died');
      release();

      // 2. Then killed at random moments while more audits run, and restarted each time.
      const more = [await submit('/article'), await submit('/article')];
      // Kafka rounds cost a rebalance (a session timeout) each: fewer of them.
      for (let round = 0; round < (kind === 'kafka' ? 2 : 4); round++) {
        const c = startChild(t, kind, url, kafkaJson);
        await c.ready;
        await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 600)));
        await kill(c.child);
      }

      // 3. A last worker that is left to run: every job reaches a terminal state (after the leases run out).
      const survivor = startChild(t, kind, url, kafkaJson);
      await survivor.ready;
      for (const a of [heldAudit, ...more]) {
        await eventually(
          async () =>
            ['completed', 'error'].includes(
              (await pool.query('SELECT status FROM audits WHERE audit_id = $1', [a.auditId])).rows[0]?.status,
            ),
          180_000,
          `${a.auditId} to end`,
        );
        const types = (await readStream(pool, auditStreamId(a.auditId))).map((e) => e.type);
        t.ok(types.includes('AuditCompleted') || types.includes('AuditFailed'), `${a.auditId} ended (${types.at(-1)})`);
        t.ok((await charges(pool, account.accountId, a.auditId)) <= 1, `${a.auditId} charged at most once`);
        if (types.includes('AuditCompleted'))
          t.equal(
            await charges(pool, account.accountId, a.auditId),
            1,
            `${a.auditId} completed and charged exactly once`,
          );
      }
      t.equal(
        (await readStream(pool, auditStreamId(heldAudit.auditId))).filter((e) => e.type === 'AuditCompleted').length,
        1,
        'the audit whose worker died mid-fetch completed once',
      );
      const inFlight = await readStream(pool, accountStreamId(account.accountId));
      const admitted = inFlight.filter((e) => e.type === 'AuditAdmitted').length;
      const released = inFlight.filter((e) => e.type === 'AuditReleased').length;
      t.equal(released, admitted, 'every admitted audit gave its place back');
      await kill(survivor.child);
    },
  );
}

export function exhaustionScenario(): void {
  t.test('a task whose worker keeps dying ends its audit with internal_error after the last attempt', async (t) => {
    const { pool, url } = await testDatabase(t);
    const projSubscriber = makeSubscriber('store', pool);
    t.teardown(() => projSubscriber.close());
    await startProjections(pool, projSubscriber, [auditsProjection]);
    const web = await servePages(t, { '/never': { body: article, hold: new Promise(() => undefined) } });
    const account = await createAccount(pool, { email: 'dies@example.com', credits: 5 });
    const audit = await submitAudit(pool, {
      accountId: account.accountId,
      source: 'api',
      idempotencyKey: null,
      bulkId: null,
      now: new Date(),
      correlationId: null,
      request: {
        url: `${web.base}/never`,
        content: null,
        title: null,
        keyword: 'running shoes',
        language: null,
        project: null,
        share: false,
        shareExpiresInDays: null,
        webhookUrl: null,
      },
    });
    // Three workers in turn, each killed while the fetch hangs: the third claim is the last attempt.
    for (let attempt = 1; attempt <= 2; attempt++) {
      const c = startChild(t, 'store', url);
      await c.ready;
      await eventually(
        async () => (web.hits.get('/never') ?? 0) >= attempt,
        60_000,
        `attempt ${attempt} to be fetching`,
      );
      await kill(c.child);
      await eventually(
        async () =>
          (
            await pool.query(`SELECT lease_until < now() AS free FROM pipeline_tasks WHERE task_id = $1`, [
              `fetch:${audit.auditId}`,
            ])
          ).rows[0]?.free === true,
        30_000,
        'the lease to run out',
      );
    }
    const stops = await startPipelineRoles(
      loadConfig({
        ALLOW_PRIVATE_ADDRESSES: '1',
        PIPELINE_LEASE_SECONDS: '3',
        PIPELINE_MAX_ATTEMPTS: '2',
        DATABASE_URL: url,
        ROLES: 'crawler,auditor',
      }),
      pool,
      makeSubscriber('store', pool),
      createLogger('test-pipeline'),
    );
    t.teardown(async () => {
      for (const s of stops) await s();
    });
    await eventually(
      async () =>
        (await pool.query('SELECT status FROM audits WHERE audit_id = $1', [audit.auditId])).rows[0]?.status ===
        'error',
      30_000,
      'the audit to be given up',
    );
    const r = (
      await pool.query('SELECT error_code, error_message, credits_charged FROM audits WHERE audit_id = $1', [
        audit.auditId,
      ])
    ).rows[0];
    t.equal(r.error_code, 'internal_error');
    t.equal(
      r.error_message,
      internalErrorMessage('fetch', 2),
      'words for the client, not the exception text (that is in the log)',
    );
    t.equal(r.credits_charged, 0, 'never charged: it died before its content was there');
  });
}
