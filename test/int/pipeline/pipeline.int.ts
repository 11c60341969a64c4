import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { accountStreamId } from '../../../events/account/index.ts';
import { readStream } from '../../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import {
  submitAudit,
  submitAudits,
  toSubmission,
  type AuditRequestInput,
} from '../../../services/pipeline/submitAudit.ts';
import { auditRequest, startPipelineService } from '../../helpers/pipelineService.ts';
import { EngineResultSchema } from '../../../services/engine/resultSchema.ts';
import { eventually } from '../../helpers/db.ts';
import { servePages } from '../../helpers/pageServer.ts';
import type { AdapterKind } from '../../helpers/subscribers.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/engine/strong/${name}`, import.meta.url), 'utf8');
const article = fixture('en-listicle-running-shoes.html');
const markdown = fixture('en-howto-descale.md');
const checkResult = TypeCompiler.Compile(EngineResultSchema);

const request = auditRequest;
const startService = (t: Test, kind: AdapterKind) => startPipelineService(t, kind);

const row = async (pool: Pool, auditId: string) =>
  (await pool.query('SELECT * FROM audits WHERE audit_id = $1', [auditId])).rows[0];
const finished = (pool: Pool, auditId: string) =>
  eventually(
    async () => ['completed', 'error'].includes((await row(pool, auditId))?.status),
    180_000,
    `audit ${auditId} to finish`,
  );
const creditEvents = async (pool: Pool, accountId: string) =>
  (await readStream(pool, accountStreamId(accountId)))
    .filter((e) => e.type === 'CreditCharged')
    .map((e) => (e.payload as { subjectId: string }).subjectId);

for (const kind of ['store', 'kafka'] as AdapterKind[]) {
  t.test(`${kind}: audits run from submission to completion, and each errorCode that can be provoked`, async (t) => {
    const { pool } = await startService(t, kind);
    const web = await servePages(t, {
      '/article': { body: article },
      '/image': { type: 'image/png', body: 'PNG' },
      '/huge': {
        body: `<html><head><title>Huge</title></head><body><article><h1>Huge page</h1>${'<p>Bicycle maintenance is simple and cheap. </p>'.repeat(5000)}</article></body></html>`,
      },
    });
    const account = await createAccount(pool, { email: 'p@example.com', credits: 10 });
    const submit = (r: Partial<AuditRequestInput>) =>
      submitAudit(pool, {
        accountId: account.accountId,
        source: 'api',
        request: request(r),
        idempotencyKey: null,
        bulkId: null,
        now: new Date(),
        correlationId: null,
      });

    const byUrl = await submit({ url: `${web.base}/article`, keyword: 'best running shoes' });
    const byContent = await submit({ content: markdown, keyword: 'descale a kettle' });
    const notFound = await submit({ url: `${web.base}/missing` });
    await finished(pool, byUrl.auditId);
    await finished(pool, byContent.auditId);
    await finished(pool, notFound.auditId);

    for (const a of [byUrl, byContent]) {
      const r = await row(pool, a.auditId);
      t.equal(r.status, 'completed', `${a.auditId} completed`);
      t.equal(r.credits_charged, 1, 'one credit charged');
      t.ok(checkResult.Check(r.result), 'the result validates against AuditResultV1 (engine part)');
      t.type(r.cqs, 'number');
    }
    t.equal((await row(pool, byUrl.auditId)).keyword, 'best running shoes', 'the keyword the audit ran on');
    const nf = await row(pool, notFound.auditId);
    t.same(
      [nf.status, nf.error_code, nf.credits_charged],
      ['error', 'crawl_failed', 0],
      '404: crawl_failed, nothing charged',
    );
    t.match(nf.error_message, /404/);

    const more = [
      { r: { url: `${web.base}/image` }, code: 'crawl_failed' },
      { r: { content: '1234 5678 9012 3456 7890 1234 5678 9012 3456 7890 1234 5678 9012' }, code: 'keyword_required' },
      { r: { content: markdown, keyword: 'how to' }, code: 'csi_failed' },
      { r: { url: `${web.base}/huge`, keyword: 'bicycle maintenance' }, code: 'content_too_large' },
    ];
    // Three in flight at most: submit in groups and wait for each group.
    for (let i = 0; i < more.length; i += 3) {
      const group = await Promise.all(more.slice(i, i + 3).map((m) => submit(m.r)));
      for (const [j, a] of group.entries()) {
        await finished(pool, a.auditId);
        const r = await row(pool, a.auditId);
        t.same(
          [r.status, r.error_code, r.credits_charged],
          ['error', more[i + j]!.code, 0],
          `${more[i + j]!.code}: failed before any charge`,
        );
      }
    }
    t.same(
      (await creditEvents(pool, account.accountId)).sort(),
      [byUrl.auditId, byContent.auditId].sort(),
      'only the completed audits were charged',
    );
  });

  t.test(`${kind}: an account that runs out of credits when the audit starts`, async (t) => {
    const { pool } = await startService(t, kind);
    const account = await createAccount(pool, { email: 'poor@example.com', credits: 1 });
    const submission = () =>
      toSubmission({
        accountId: account.accountId,
        source: 'api',
        request: request({ content: markdown, keyword: 'descale a kettle' }),
        idempotencyKey: null,
        bulkId: null,
        now: new Date(),
        correlationId: null,
      });
    // Both are admitted (the balance is 1 at submission: they are accepted in one transaction, as
    // the API's group commit may, so the first cannot be charged before the second is admitted);
    // only one can be charged.
    const accepted = (await submitAudits(pool, [submission(), submission()])).map((o) => {
      if (!o.ok) throw o.error;
      return o.value;
    });
    const [a, b] = [accepted[0]!, accepted[1]!];
    await finished(pool, a.auditId);
    await finished(pool, b.auditId);
    const outcomes = [await row(pool, a.auditId), await row(pool, b.auditId)]
      .map((r) => `${r.status}:${r.error_code ?? ''}:${r.credits_charged}`)
      .sort();
    t.same(outcomes, ['completed::1', 'error:insufficient_credits:0']);
    t.equal((await creditEvents(pool, account.accountId)).length, 1, 'one charge');
  });
}
