import t from 'tap';
import { eventually } from '../../helpers/db.ts';
import { auditApi, bearer, seedAudit } from '../api/audits/fixtures/auditApi.ts';
import { failGeneration } from '../../../services/apply/generateStep.ts';
import { editRevision } from '../../../services/apply/editRevision.ts';
import { GENERATE, taskSubject } from '../../../services/apply/requestGeneration.ts';
import { applyRole, completedTextAudit, ledgerTrue } from './fixtures.ts';

type Item = {
  id: string;
  group: string;
  selectable: boolean;
  authorDataOnly: boolean;
  editorialOnly: boolean;
  noChange: boolean;
  label: string;
  before: string;
  after: string;
};

/** Apply (spec 2.5, 2.6, 3.4, 4.10-4.12, 8) over real PostgreSQL, the API and the apply role. */
t.test('apply', async (t) => {
  const f = await auditApi(t, { rateLimits: { apply: 1000 } });
  const inject = (method: 'GET' | 'POST', url: string, apiKey: string, payload?: unknown) =>
    f.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(apiKey),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const items = async (id: string, apiKey: string) =>
    (await inject('GET', `/audits/${id}/apply/items`, apiKey)).json() as {
      items: Item[];
      revisions: any[];
      cqs: number;
    };
  const poll = async (id: string, rev: string, apiKey: string, done: (b: any) => boolean) => {
    let body: any;
    await eventually(
      async () => {
        body = (await inject('GET', `/audits/${id}/apply/${rev}`, apiKey)).json();
        return done(body);
      },
      30_000,
      `revision ${rev}`,
    );
    return body;
  };

  t.test(
    'items (4.10): 409 before completion, 404 for another account, stable ids, honest flags, labels in the content language',
    async (t) => {
      const a = await f.account();
      const b = await f.account();
      const queued = await seedAudit(f.pool, {
        accountId: a.accountId,
        now: new Date(),
        request: { content: 'x '.repeat(60), keyword: 'kettle' },
      });
      t.equal(
        (await inject('GET', `/audits/${queued.jobId}/apply/items`, a.apiKey)).json().error.code,
        'not_completed',
      );
      const { auditId, jobId } = await completedTextAudit(f.pool, a.accountId);
      await f.waitFor(a.accountId, auditId, (r) => r.status === 'completed');
      t.equal(
        (await inject('GET', `/audits/${jobId}/apply/items`, b.apiKey)).statusCode,
        404,
        "another account's audit is not found",
      );
      const res = await inject('GET', `/audits/${jobId}/apply/items`, a.apiKey);
      t.equal(res.statusCode, 200);
      const body = res.json();
      t.equal(body.auditId, auditId);
      t.equal(body.apiVersion, 'v1.4');
      t.same(body.revisions, []);
      t.ok(
        body.items.some((i: Item) => i.id.startsWith('rec:')) &&
          body.items.some((i: Item) => i.id === 'meta:title') &&
          body.items.some((i: Item) => i.id.startsWith('struct:')),
        'rec:, meta: and struct: items',
      );
      t.same((await items(auditId, a.apiKey)).items, body.items, 'the same items, same ids, by audit id');
      for (const i of body.items as Item[]) {
        if (i.authorDataOnly || i.editorialOnly || i.noChange)
          t.equal(i.selectable, false, `${i.id} is not selectable`);
        if (/\[(fill in|uzupełnij)/i.test(i.after)) t.equal(i.authorDataOnly, true, `${i.id} asks for author data`);
      }
      const pl = await completedTextAudit(f.pool, a.accountId, 'pl-howto-zakwas');
      await f.waitFor(a.accountId, pl.auditId, (r) => r.status === 'completed');
      const plItems = (await items(pl.jobId, a.apiKey)).items;
      t.match(plItems.find((i) => i.id === 'meta:title')!.label, /Tytuł/, 'Polish labels for Polish content');
    },
  );

  t.test(
    'POST (4.11, 3.4): 400s, new 202 for 1 credit, same selection in flight / cached at no cost, force, measurement, ledger',
    async (t) => {
      const a = await f.account({ credits: 5 });
      const { auditId, jobId } = await completedTextAudit(f.pool, a.accountId);
      await f.waitFor(a.accountId, auditId, (r) => r.status === 'completed');
      const all = (await items(jobId, a.apiKey)).items;
      const selectable = all.filter((i) => i.selectable).map((i) => i.id);
      t.ok(selectable.length >= 2, `selectable items: ${selectable.join(', ')}`);
      const notSelectable = all.find((i) => !i.selectable);
      t.equal(
        (await inject('POST', `/audits/${jobId}/apply`, a.apiKey, { selectedIds: ['rec:9999', 'nope'] })).json().error
          .code,
        'invalid_request',
        'unknown ids only: 400',
      );
      if (notSelectable)
        t.equal(
          (await inject('POST', `/audits/${jobId}/apply`, a.apiKey, { selectedIds: [notSelectable.id] })).statusCode,
          400,
          'a not selectable item alone: 400',
        );
      t.equal(
        (
          await inject('POST', `/audits/${jobId}/apply`, a.apiKey, {
            selectedIds: Array.from({ length: 301 }, (_, i) => `rec:${i}`),
          })
        ).statusCode,
        400,
        'over 300 ids: 400',
      );
      t.equal(
        await ledgerTrue(t, f.pool, a.accountId),
        4,
        'no charge for refused requests (1 credit went to the audit)',
      );

      const sel = [...selectable, 'unknown:id'];
      const started = await inject('POST', `/audits/${jobId}/apply`, a.apiKey, { selectedIds: sel });
      t.equal(started.statusCode, 202);
      const rev = started.json();
      t.match(rev, {
        status: 'generating',
        fromCache: false,
        result: null,
        measurement: null,
        auditId,
        id: jobId,
        apiVersion: 'v1.4',
      });
      t.same([...rev.selectedIds].sort(), [...selectable].sort(), 'unknown ids skipped');
      const again = await inject('POST', `/audits/${jobId}/apply`, a.apiKey, {
        selectedIds: [...selectable].reverse(),
      });
      t.equal(again.statusCode, 200, 'the same selection (as a set) in flight: 200');
      t.equal(again.json().revisionId, rev.revisionId);
      t.equal(await ledgerTrue(t, f.pool, a.accountId), 3, 'one credit for one generation');

      applyRole(t, f.pool);
      const done = await poll(
        jobId,
        rev.revisionId,
        a.apiKey,
        (b) => b.status === 'completed' && b.measurement?.status !== 'running',
      );
      t.ok(done.result.appliedIds.length > 0, `applied ${done.result.appliedIds.join(', ')}`);
      t.equal(done.result.editedInPanel, false);
      t.match(done.result.previewHtml, /^<!doctype html>/);
      t.match(done.result.previewHtml, /class="new"|class="changed"/);
      t.notSame(done.result.markdown, '', 'the whole article');
      t.equal(
        done.result.title === null,
        !selectable.includes('meta:title') || !done.result.appliedIds.includes('meta:title'),
      );
      t.equal(done.measurement.status, 'completed');
      t.type(done.measurement.cqsAfter, 'number');
      t.type(done.measurement.cqsBefore, 'number');

      const cached = await inject('POST', `/audits/${auditId}/apply`, a.apiKey, { selectedIds: selectable });
      t.equal(cached.statusCode, 200);
      t.match(cached.json(), { fromCache: true, status: 'completed', revisionId: rev.revisionId });
      t.equal(await ledgerTrue(t, f.pool, a.accountId), 3, 'cached: no charge');
      const forced = await inject('POST', `/audits/${auditId}/apply`, a.apiKey, {
        selectedIds: selectable,
        force: true,
      });
      t.equal(forced.statusCode, 202);
      t.not(forced.json().revisionId, rev.revisionId, 'force: a new revision');
      t.equal(await ledgerTrue(t, f.pool, a.accountId), 2, 'force: 1 credit');
      await poll(jobId, forced.json().revisionId, a.apiKey, (b) => b.status === 'completed');
      t.equal(
        (await inject('GET', `/audits/${jobId}/apply/${rev.revisionId}`, a.apiKey)).json().result.markdown,
        done.result.markdown,
        'the previous result stays',
      );
      await editRevision(f.pool, rev.revisionId, '# Edited by the owner\n\nNew text.\n', 'owner');
      const edited = (await inject('GET', `/audits/${jobId}/apply/${rev.revisionId}`, a.apiKey)).json();
      t.match(
        edited.result,
        { markdown: '# Edited by the owner\n\nNew text.\n', editedInPanel: true },
        'an edited version comes back with editedInPanel',
      );
      const list = (await items(jobId, a.apiKey)).revisions;
      t.same(
        list.map((r: any) => r.revisionId),
        [forced.json().revisionId, rev.revisionId],
        'revisions newest first',
      );
      t.equal(list[1].measuredCqs, done.measurement.cqsAfter, 'measuredCqs follows the measurement');
      t.equal((await inject('GET', `/audits/${jobId}/apply/rev_unknown`, a.apiKey)).statusCode, 404);
      const b = await f.account();
      t.equal(
        (await inject('GET', `/audits/${jobId}/apply/${rev.revisionId}`, b.apiKey)).statusCode,
        404,
        "another account's revision is not found",
      );
    },
  );

  t.test(
    '402 without a credit; at most 3 generations at a time (429 with Retry-After), counted apart from audits; a failure is refunded',
    async (t) => {
      const poor = await f.account({ credits: 1 });
      const p = await completedTextAudit(f.pool, poor.accountId);
      await f.waitFor(poor.accountId, p.auditId, (r) => r.status === 'completed');
      const pSel = (await items(p.jobId, poor.apiKey)).items.filter((i) => i.selectable).map((i) => i.id);
      t.equal(
        (await inject('POST', `/audits/${p.jobId}/apply`, poor.apiKey, { selectedIds: pSel })).statusCode,
        402,
        'the account paid 1 credit for its audit already',
      );

      // No apply role in this subtest's account path: the worker of the previous subtest is gone.
      const a = await f.account({ credits: 10 });
      // The limit is the account's, so the selections may come from three of its audits: a short audit
      // offers few selectable items, and four different selections must not depend on that.
      const audits = [
        await completedTextAudit(f.pool, a.accountId),
        await completedTextAudit(f.pool, a.accountId),
        await completedTextAudit(f.pool, a.accountId),
      ];
      const candidates: { jobId: string; auditId: string; selectedIds: string[] }[] = [];
      for (const au of audits) {
        await f.waitFor(a.accountId, au.auditId, (r) => r.status === 'completed');
        const sel = (await items(au.jobId, a.apiKey)).items.filter((i) => i.selectable).map((i) => i.id);
        candidates.push(...sel.map((x) => ({ ...au, selectedIds: [x] })));
      }
      t.ok(candidates.length >= 5, 'five different selections to ask for');
      const four = await Promise.all(
        candidates
          .slice(0, 4)
          .map((c) => inject('POST', `/audits/${c.jobId}/apply`, a.apiKey, { selectedIds: c.selectedIds })),
      );
      const codes = four.map((r) => r.statusCode).sort();
      t.same(codes, [202, 202, 202, 429], 'four at once: the fourth is 429');
      const limited = four.find((r) => r.statusCode === 429)!;
      t.equal(limited.json().error.code, 'rate_limited');
      t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After');
      t.equal(await ledgerTrue(t, f.pool, a.accountId), 4, 'three generations charged (3 audits + 3)');

      // A generation given up ends failed, refunded as a ledger entry, and frees its place.
      const victimAt = four.findIndex((r) => r.statusCode === 202);
      const victim = four[victimAt]!.json();
      const { auditId, jobId } = candidates[victimAt]!;
      const victimTask = `${GENERATE}:${taskSubject(auditId, victim.revisionId)}`;
      // As its current holder: a completion from any older claim is refused (fencing).
      const { attempts } = (
        await f.pool.query<{ attempts: number }>('SELECT attempts FROM pipeline_tasks WHERE task_id = $1', [victimTask])
      ).rows[0]!;
      await failGeneration(
        f.pool,
        {
          taskId: victimTask,
          kind: GENERATE,
          accountId: a.accountId,
          subjectId: taskSubject(auditId, victim.revisionId),
          attempt: attempts,
        },
        'the writer crashed',
      );
      const failed = (await inject('GET', `/audits/${jobId}/apply/${victim.revisionId}`, a.apiKey)).json();
      t.match(failed, { status: 'failed', error: 'the writer crashed', result: null });
      t.equal(await ledgerTrue(t, f.pool, a.accountId), 5, 'the failed generation was refunded');
      const fifth = candidates[4]!;
      const fourth = await inject('POST', `/audits/${fifth.jobId}/apply`, a.apiKey, { selectedIds: fifth.selectedIds });
      t.equal(fourth.statusCode, 202, 'a place is free again');
    },
  );

  t.test(
    'a generation whose worker died mid-way (lease taken, never finished) is taken up again: it ends, charged once',
    async (t) => {
      const a = await f.account({ credits: 3 });
      const { auditId, jobId } = await completedTextAudit(f.pool, a.accountId);
      await f.waitFor(a.accountId, auditId, (r) => r.status === 'completed');
      const sel = (await items(jobId, a.apiKey)).items.filter((i) => i.selectable).map((i) => i.id);
      // No worker runs in this subtest's window yet for this task: a dead worker claims it first.
      const started = (
        await inject('POST', `/audits/${jobId}/apply`, a.apiKey, { selectedIds: sel.slice(0, 1) })
      ).json();
      const claimed = await f.pool.query(
        `UPDATE pipeline_tasks SET attempts = attempts + 1, lease_until = now() + interval '2 seconds' WHERE task_id = $1 RETURNING attempts`,
        [`${GENERATE}:${taskSubject(auditId, started.revisionId)}`],
      );
      t.equal(claimed.rowCount, 1, 'the task was leased by a worker that then died');
      applyRole(t, f.pool);
      const done = await poll(jobId, started.revisionId, a.apiKey, (b) => b.status !== 'generating');
      t.equal(done.status, 'completed', 'the revision ends');
      t.equal(await ledgerTrue(t, f.pool, a.accountId), 1, 'audit + one generation: charged once');
    },
  );
});
