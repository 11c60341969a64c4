import t from 'tap';
import { testDatabase } from '../../helpers/db.ts';
import { admin, childEnv } from '../../helpers/adminCli.ts';
import { createAccount } from '../../../services/admin/operations.ts';

/**
 * The operator CLI refusing: each bad argument or refused command exits non-zero with the error as
 * JSON on stderr and nothing on stdout. A file of its own: every case is a process of its own, and
 * with the other CLI tests in one file they outgrew tap's per-file timeout on a loaded machine.
 */
t.test('bad arguments and refused commands: JSON on stderr, non-zero exit, nothing on stdout', async (t) => {
  const db = await testDatabase(t);
  const env = childEnv({ DATABASE_URL: db.url });
  const acct = await createAccount(db.pool, { email: 'refusals@example.com', credits: 5 });
  const cases: [string[], number, string, RegExp][] = [
    [['accounts', 'create'], 2, 'usage', /--email is required/],
    [['accounts', 'create', '--email', 'not-an-email'], 1, 'invalid_request', /is not an e-mail address/],
    [
      ['accounts', 'create', '--email', 'x@y.z', '--credits', '1.5'],
      1,
      'invalid_request',
      /--credits must be a whole number/,
    ],
    [['accounts', 'create', '--email', 'x@y.z', '--bogus'], 2, 'usage', /Unknown option '--bogus'/],
    [
      ['credits', 'purchase', '--account', acct.accountId, '--credits', '0'],
      1,
      'invalid_request',
      /--credits must be from 1/,
    ],
    [['credits', 'purchase', '--account', 'usr_nobody', '--credits', '1'], 1, 'not_found', /account not found/],
    [
      ['credits', 'purchase', '--account', 'bob', '--credits', '1'],
      1,
      'invalid_request',
      /--account must be an id starting with usr_/,
    ],
    [
      ['credits', 'adjust', '--account', acct.accountId, '--delta', '-100', '--reason', 'x', '--actor', 'y'],
      1,
      'invalid_request',
      /below zero/,
    ],
    [
      ['credits', 'adjust', '--account', acct.accountId, '--delta', '2', '--reason', 'x'],
      2,
      'usage',
      /--actor is required/,
    ],
    [
      ['keys', 'create', '--account', acct.accountId, '--scopes', 'audits:delete'],
      1,
      'invalid_request',
      /unknown scope audits:delete/,
    ],
    [['keys', 'revoke', '--key', 'key_nope'], 1, 'not_found', /API key key_nope not found/],
    [['frobnicate'], 2, 'usage', /unknown command "frobnicate"/],
  ];
  for (const [args, code, errorCode, message] of cases) {
    const r = await admin(env, ...args);
    t.equal(r.code, code, `${args.join(' ')}: exit ${code}`);
    t.equal(r.json, null, `${args.join(' ')}: nothing on stdout`);
    t.equal(r.stderr?.error?.code, errorCode, `${args.join(' ')}: code ${errorCode}`);
    t.match(r.stderr?.error?.message, message, `${args.join(' ')}: message`);
  }
});
