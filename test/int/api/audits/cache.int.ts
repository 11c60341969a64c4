import t from 'tap';
import { createLogger } from '../../../../infra/logger.ts';
import { assignProject } from '../../../../services/admin/audits.ts';
import { buildApp } from '../../../../services/api/app.ts';
import { createAuditCache } from '../../../../services/api/audits/auditCache.ts';
import { createAuditReader } from '../../../../services/api/audits/auditReader.ts';
import { createReadiness } from '../../../../services/readiness.ts';
import { eventually } from '../../../helpers/db.ts';
import { DEFAULT_LIMITS } from '../fixtures/app.ts';
import { auditApi, bearer, completeAudit, failAudit, PUBLIC_BASE_URL, startAudit } from './fixtures/auditApi.ts';
import { URL } from '../../../unit/api/audits/submissionCases.ts';

/**
 * GET /audits/{id} answers polled jobs from a per-process cache that the audits projection's
 * NOTIFY invalidates (services/api/audits/auditCache.ts). Two API instances on one database: a job
 * is found right after its 202 by either; a change shows on both within moments; once an instance
 * has shown a status it never shows an older one; another account never sees the job.
 */
t.test(
  'two API instances, cached polls: read-your-writes, changes shown, never older, never another account',
  async (t) => {
    const f = await auditApi(t);
    const second = await buildApp({
      log: createLogger('test-audit-api-2'),
      readiness: createReadiness({ pool: f.pool, groups: [], maxLag: 1000 }),
      pool: f.pool,
      rateLimits: { ...DEFAULT_LIMITS, read: 100_000, submission: 1000 },
      audits: { publicBaseUrl: PUBLIC_BASE_URL, allowPrivateAddresses: false },
    });
    await second.ready();
    t.teardown(() => second.close());
    const apps = [f.app, second];
    const a = await f.account();
    const other = await f.account();
    const get = async (i: number, id: string, key = a.apiKey) => {
      const res = await apps[i]!.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: bearer(key) });
      return { code: res.statusCode, body: res.json() };
    };
    const RANK: Record<string, number> = { queued: 0, running: 1, completed: 2, error: 2 };

    for (const [via, poll] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const res = await apps[via]!.inject({
        method: 'POST',
        url: '/api/v1/audits',
        headers: bearer(a.apiKey),
        // A page: queued until the test starts it (supplied content starts with its acceptance).
        payload: { url: URL, keyword: 'city bicycle', project: 'p1' },
      });
      t.equal(res.statusCode, 202);
      const job = res.json() as { id: string; auditId: string };
      // Read-your-writes on both, at once (the row is written with the submission).
      for (const i of [via, poll]) t.equal((await get(i, job.id)).body.status, 'queued', `found at once on ${i}`);
      for (let k = 0; k < 5; k++) t.equal((await get(poll, job.auditId)).body.status, 'queued');
      t.equal((await get(poll, job.id, other.apiKey)).code, 404, "another account's key: not found, cached or not");
      t.equal((await get(via, job.auditId, other.apiKey)).code, 404);

      // The pipeline moves the job on; both instances show it within moments, never going back.
      const shown = [0, 0];
      const watch = async (until: string) =>
        eventually(
          async () => {
            const now = await Promise.all([0, 1].map((i) => get(i, job.id)));
            now.forEach((r, i) => {
              t.ok(RANK[r.body.status]! >= shown[i]!, `instance ${i} never shows an older status (${r.body.status})`);
              shown[i] = RANK[r.body.status]!;
            });
            return now.every((r) => r.body.status === until);
          },
          10_000,
          `both instances showing ${until}`,
        );
      await startAudit(f.pool, a.accountId, job.auditId);
      await watch('running');
      await assignProject(f.pool, { auditId: job.auditId, project: 'p2' });
      await eventually(
        async () => (await Promise.all([0, 1].map((i) => get(i, job.id)))).every((r) => r.body.project === 'p2'),
        10_000,
        'the new project on both',
      );
      if (via === 0) {
        await completeAudit(f.pool, a.accountId, job.auditId);
        await watch('completed');
        t.equal((await get(1, job.id)).body.meta?.apiVersion, 'v1.4', 'completed: the full result');
      } else {
        await failAudit(f.pool, a.accountId, job.auditId);
        await watch('error');
        t.equal((await get(0, job.id)).body.errorCode, 'crawl_failed');
      }
      t.equal((await get(poll, job.id, other.apiKey)).code, 404);
    }
  },
);

t.test(
  'the cache itself: hits without a read; a NOTIFY drops the row; a read the NOTIFY overtook is not kept',
  async (t) => {
    const f = await auditApi(t);
    const a = await f.account();
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: bearer(a.apiKey),
      payload: { url: URL, keyword: 'city bicycle' },
    });
    const job = res.json() as { id: string; auditId: string };
    let reads = 0;
    let hold: Promise<void> | null = null;
    const real = createAuditReader(f.pool);
    const reader = {
      async find(accountId: string, id: string) {
        reads++;
        const row = await real.find(accountId, id);
        // Only the reads by job id are held; those by audit id show what the cache holds.
        if (hold && id === job.id) await hold;
        return row;
      },
    };
    const cache = createAuditCache(f.pool, createLogger('test-cache', 'error'), reader);
    t.teardown(() => cache.close());
    /** Whether a find went to the database (a hit never reaches the reader). */
    const reads1 = async (id: string) => {
      const n = reads;
      await cache.find(a.accountId, id);
      return reads > n;
    };
    // Once listening, the second find of a row is a hit.
    await eventually(async () => (await reads1(job.id), !(await reads1(job.id))), 5_000, 'the cache listening');
    for (let i = 0; i < 5; i++) t.notOk(await reads1(job.id), 'served from the cache');
    t.equal((await cache.find(a.accountId, job.id))?.status, 'queued');
    t.equal(await cache.find('acc_other', job.id), null, 'keyed by account: another account is not found');

    // A NOTIFY for the row drops it (by either id): the next find reads, and keeps it again.
    const notify = () => f.pool.query(`SELECT pg_notify('audits_changed', $1)`, [job.auditId]);
    await eventually(async () => (await reads1(job.auditId), !(await reads1(job.auditId))), 5_000, 'by audit id');
    await notify();
    await eventually(() => reads1(job.auditId), 5_000, 'the row dropped');
    t.ok(await reads1(job.id), 'dropped under its job id too');
    // Each of the two LISTEN connections brings its own copy, which may drop the row once more.
    await eventually(async () => !(await reads1(job.id)), 5_000, 'kept again');

    // A read that a notification for its row overtakes: its row is not kept.
    let open!: () => void;
    hold = new Promise((r) => (open = r));
    await notify();
    await eventually(
      async () => (await reads1(job.auditId), !(await reads1(job.auditId))),
      5_000,
      'dropped, kept again',
    );
    const before = reads;
    const slow = cache.find(a.accountId, job.id);
    await eventually(async () => reads > before, 5_000, 'the read by job id started');
    await notify();
    await eventually(() => reads1(job.auditId), 5_000, 'the second notification handled');
    hold = null;
    open();
    t.equal((await slow)?.status, 'queued');
    t.ok(await reads1(job.id), 'the overtaken read was not kept: the next find reads again');
    await eventually(async () => !(await reads1(job.id)), 5_000, 'then kept again');
  },
);
