import t from 'tap';
import { join } from 'node:path';
import { CORPUS_DIR } from '../../fixtures/engine/corpus.ts';
import { admin } from '../../helpers/adminCli.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { startService } from '../../helpers/service.ts';

/**
 * App audits and reassignment through the operator CLI (issue 5 item 6), against `npm start` with
 * every role: an app audit appears only with source=panel/all, the pipeline completes it, and a
 * reassignment shows in GET /audits/{id}, the list rows and GET /projects.
 */

const childEnv = (databaseUrl: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'error',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    PUBLIC_BASE_URL: 'https://app.example',
  };
  delete env.KAFKA_BROKERS;
  delete env.ROLES;
  return env;
};

t.test('audits create / audits assign against a running service', async (t) => {
  const db = await testDatabase(t);
  const env = childEnv(db.url);
  const { base } = await startService(t, env);
  const api = async (path: string, key: string) => {
    const res = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as any };
  };

  const account = await admin(env, 'accounts', 'create', '--email', 'panel@example.com', '--credits', '3');
  t.equal(account.code, 0, JSON.stringify(account.stderr));
  const { accountId, apiKey } = account.json;

  const file = join(CORPUS_DIR, 'strong', 'en-howto-descale.md');
  const created = await admin(
    env,
    'audits',
    'create',
    '--account',
    accountId,
    '--content-file',
    file,
    '--keyword',
    'descale a kettle',
    '--project',
    'Kitchen',
  );
  t.equal(created.code, 0, JSON.stringify(created.stderr));
  t.match(created.json, {
    auditId: /^aud_/,
    jobId: null,
    source: 'panel',
    status: 'queued',
    project: 'Kitchen',
    createdAt: /Z$/,
  });
  const { auditId } = created.json;

  t.test('an app audit is listed with source=panel and all, not by default', async (t) => {
    t.same((await api('/audits', apiKey)).body.data, [], 'default source=api: not there');
    const panel = (await api('/audits?source=panel', apiKey)).body;
    t.match(panel, {
      total: 1,
      data: [
        {
          id: null,
          auditId,
          source: 'panel',
          project: 'Kitchen',
          errorCode: null,
          reportUrl: `https://app.example/app/audits/${auditId}`,
        },
      ],
    });
    t.equal((await api('/audits?source=all', apiKey)).body.total, 1);
  });

  await eventually(
    async () => (await api(`/audits/${auditId}`, apiKey)).body.status === 'completed',
    120_000,
    'the pipeline to complete the app audit',
  );
  const done = (await api(`/audits/${auditId}`, apiKey)).body;
  t.match(done, {
    id: auditId,
    status: 'completed',
    input: { url: null, project: 'Kitchen' },
    meta: { apiVersion: 'v1.4', creditsCharged: 1 },
  });
  t.same(
    (await api('/projects', apiKey)).body.data.map((p: any) => [p.name, p.auditCount]),
    [['Kitchen', 1]],
  );

  t.test('assign: the project moves in GET /audits/{id}, the list and GET /projects', async (t) => {
    const moved = await admin(env, 'audits', 'assign', '--audit', auditId, '--project', 'Garden');
    t.equal(moved.code, 0, JSON.stringify(moved.stderr));
    t.same(moved.json, { auditId, accountId, project: 'Garden', changed: true });
    await eventually(
      async () => (await api(`/audits/${auditId}`, apiKey)).body.input.project === 'Garden',
      30_000,
      'the reassignment to show',
    );
    t.equal((await api('/audits?source=panel&project=Garden', apiKey)).body.total, 1);
    t.equal((await api('/audits?source=panel&project=Kitchen', apiKey)).body.total, 0);
    t.same(
      (await api('/projects', apiKey)).body.data.map((p: any) => [p.name, p.auditCount]),
      [['Garden', 1]],
    );

    const again = await admin(env, 'audits', 'assign', '--audit', auditId, '--project', 'Garden');
    t.same(
      again.json,
      { auditId, accountId, project: 'Garden', changed: false },
      'the same project again changes nothing',
    );

    const none = await admin(env, 'audits', 'assign', '--audit', auditId, '--none');
    t.equal(none.code, 0);
    await eventually(
      async () => (await api(`/audits/${auditId}`, apiKey)).body.input.project === null,
      30_000,
      'unassigned',
    );
    t.equal((await api('/audits?source=all&project=__none__', apiKey)).body.total, 1);
    t.same((await api('/projects', apiKey)).body, { data: [], total: 0, apiVersion: 'v1.4' });
  });

  t.test('bad command lines and refused commands', async (t) => {
    const cases: [string[], number, string, RegExp][] = [
      [['audits', 'create', '--account', accountId], 2, 'usage', /exactly one of --url and --content-file/],
      [
        ['audits', 'create', '--account', accountId, '--url', 'https://example.com/', '--content-file', file],
        2,
        'usage',
        /exactly one of --url and --content-file/,
      ],
      [
        ['audits', 'create', '--account', accountId, '--url', 'http://10.0.0.1/'],
        1,
        'invalid_request',
        /^url is not allowed: the address 10\.0\.0\.1 is not public \(private\)$/,
      ],
      [
        ['audits', 'create', '--account', accountId, '--url', 'https://example.com/', '--project', 'x'.repeat(101)],
        1,
        'invalid_request',
        /^project must be at most 100 characters long/,
      ],
      [
        ['audits', 'create', '--account', 'usr_nobody', '--url', 'https://example.com/'],
        1,
        'not_found',
        /account not found/,
      ],
      [['audits', 'assign', '--audit', auditId], 2, 'usage', /exactly one of --project and --none/],
      [
        ['audits', 'assign', '--audit', auditId, '--project', 'A', '--none'],
        2,
        'usage',
        /exactly one of --project and --none/,
      ],
      [['audits', 'assign', '--audit', auditId, '--project', ''], 1, 'invalid_request', /^project must not be empty/],
      [['audits', 'assign', '--audit', 'aud_nope', '--project', 'A'], 1, 'not_found', /^Audit aud_nope not found$/],
      [
        ['audits', 'assign', '--audit', 'job_1', '--project', 'A'],
        1,
        'invalid_request',
        /--audit must be an id starting with aud_/,
      ],
    ];
    for (const [args, code, errorCode, message] of cases) {
      const r = await admin(env, ...args);
      t.equal(r.code, code, `${args.join(' ')}: exit ${code}`);
      t.equal(r.json, null, `${args.join(' ')}: nothing on stdout`);
      t.equal(r.stderr?.error?.code, errorCode, `${args.join(' ')}: ${JSON.stringify(r.stderr)}`);
      t.match(r.stderr?.error?.message, message, args.join(' '));
    }
  });
});
