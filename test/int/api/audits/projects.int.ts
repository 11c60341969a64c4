import t from 'tap';
import { assignProject } from '../../../../services/admin/audits.ts';
import { CONTENT } from '../../../unit/api/audits/submissionCases.ts';
import { auditApi, bearer, seedAudit } from './fixtures/auditApi.ts';

/** GET /projects (spec 2.7, 4.13). */
t.test('GET /api/v1/projects', async (t) => {
  const f = await auditApi(t);
  const a = await f.account();
  const b = await f.account();
  const projects = async (apiKey = a.apiKey) => {
    const res = await f.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer(apiKey) });
    t.equal(res.statusCode, 200);
    return res.json();
  };

  t.same(await projects(), { data: [], total: 0, apiVersion: 'v1.4' }, 'no audits, no projects');

  const at = (s: string) => new Date(`2026-03-0${s}Z`);
  const x1 = await seedAudit(f.pool, {
    accountId: a.accountId,
    now: at('1T10:00:00'),
    request: { url: 'https://example.com/1', project: 'Acme' },
  });
  await seedAudit(f.pool, {
    accountId: a.accountId,
    now: at('2T10:00:00'),
    request: { content: CONTENT, project: 'acme' },
  });
  await seedAudit(f.pool, {
    accountId: a.accountId,
    now: at('3T10:00:00'),
    source: 'panel',
    request: { url: 'https://example.com/3', project: 'Acme' },
  });
  await seedAudit(f.pool, { accountId: a.accountId, now: at('4T10:00:00'), request: { url: 'https://example.com/4' } });
  await seedAudit(f.pool, {
    accountId: a.accountId,
    now: at('5T10:00:00'),
    request: { url: 'https://example.com/5', project: 'Zeta' },
  });
  await seedAudit(f.pool, {
    accountId: b.accountId,
    now: at('6T10:00:00'),
    request: { url: 'https://example.com/6', project: 'Acme' },
  });

  t.test(
    'exact case-sensitive names; counts over API and app audits; newest audit time; by name in code-point order',
    async (t) => {
      t.same(await projects(), {
        data: [
          { name: 'Acme', auditCount: 2, lastAuditAt: '2026-03-03T10:00:00.000Z' },
          { name: 'Zeta', auditCount: 1, lastAuditAt: '2026-03-05T10:00:00.000Z' },
          { name: 'acme', auditCount: 1, lastAuditAt: '2026-03-02T10:00:00.000Z' },
        ],
        total: 3,
        apiVersion: 'v1.4',
      });
      t.same(
        (await projects(b.apiKey)).data,
        [{ name: 'Acme', auditCount: 1, lastAuditAt: '2026-03-06T10:00:00.000Z' }],
        "only the account's own",
      );
    },
  );

  t.test('reassignment moves the count; a project with no audit left disappears', async (t) => {
    await assignProject(f.pool, { auditId: x1.auditId, project: 'Zeta' });
    await f.waitFor(a.accountId, x1.auditId, (r) => r.project === 'Zeta');
    t.same((await projects()).data, [
      { name: 'Acme', auditCount: 1, lastAuditAt: '2026-03-03T10:00:00.000Z' },
      { name: 'Zeta', auditCount: 2, lastAuditAt: '2026-03-05T10:00:00.000Z' },
      { name: 'acme', auditCount: 1, lastAuditAt: '2026-03-02T10:00:00.000Z' },
    ]);
    const panelAcme = (
      await f.pool.query(`SELECT audit_id FROM audits WHERE account_id = $1 AND project = 'Acme'`, [a.accountId])
    ).rows[0].audit_id;
    await assignProject(f.pool, { auditId: panelAcme, project: null });
    await f.waitFor(a.accountId, panelAcme, (r) => r.project === null);
    t.same(
      (await projects()).data.map((p: { name: string }) => p.name),
      ['Zeta', 'acme'],
    );
  });

  t.test('naming a new project in a submission creates it', async (t) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: bearer(a.apiKey),
      payload: { url: 'https://example.com/new', project: 'Brand new' },
    });
    t.equal(res.statusCode, 202);
    t.match((await projects()).data, [{ name: 'Brand new', auditCount: 1, lastAuditAt: res.json().createdAt }]);
  });
});
