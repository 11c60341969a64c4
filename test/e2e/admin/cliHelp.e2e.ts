import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBCOMMANDS } from '../../../services/admin/subcommands.ts';
import { childEnv } from '../../helpers/adminCli.ts';

/** The package's bin (`npx audit-service ...`), as a child process. */
async function bin(env: NodeJS.ProcessEnv, ...args: string[]) {
  const child = spawn(process.execPath, ['bin/audit-service.js', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

t.test('--help on the program, every group and every command: usage on stdout, exit 0', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cli-help-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env = childEnv({ DATA_DIR: dataDir });
  const groups = [...new Set(Object.keys(SUBCOMMANDS).map((k) => k.split(' ')[0]!))];
  const lines: string[][] = [['--help'], ['help'], ['audit', '--help'], ...groups.map((g) => [g, '--help'])];
  for (const k of Object.keys(SUBCOMMANDS)) lines.push([...k.split(' '), '--help']);
  // A help flag among other options still answers with the usage.
  lines.push(['webhooks', 'list', '--job', 'job_1', '-h']);
  for (const args of lines) {
    const r = await bin(env, ...args);
    t.equal(r.code, 0, `${args.join(' ')}: exit 0 (${r.stderr})`);
    t.match(r.stdout, /usage/, `${args.join(' ')}: usage on stdout`);
    t.equal(r.stderr, '', `${args.join(' ')}: nothing on stderr`);
  }
  const top = await bin(env, '--help');
  for (const k of [...Object.keys(SUBCOMMANDS), 'audit FILE|URL'])
    t.ok(top.stdout.includes(`audit-service ${k}`), `the program's help lists ${k}`);
  t.notOk(existsSync(join(dataDir, 'pg')), 'asking for help touched no database');
});

t.test('an unknown flag or command names the closest valid one', async (t) => {
  const env = childEnv({ DATA_DIR: join(tmpdir(), 'cli-help-never-made') });
  const flag = await bin(env, 'webhooks', 'list', '--jbo', 'job_1');
  t.equal(flag.code, 2);
  t.match(JSON.parse(flag.stderr).error.message, /Unknown option '--jbo'; the closest valid option is --job/);
  const command = await bin(env, 'acounts', 'create');
  t.equal(command.code, 2);
  t.match(JSON.parse(command.stderr).error.message, /the closest is "accounts create"/);
  const audit = await bin(env, 'audit', 'article.md', '--kyeword', 'x');
  t.equal(audit.code, 1);
  t.match(audit.stderr, /Unknown option '--kyeword'; the closest valid option is --keyword/);
});

t.test('with no state where it looks, the operator CLI says where and creates nothing', async (t) => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'cli-nostate-')), 'data');
  t.teardown(() => rm(join(dataDir, '..'), { recursive: true, force: true }));
  const r = await bin(childEnv({ DATA_DIR: dataDir }), 'webhooks', 'list', '--job', 'job_1');
  t.equal(r.code, 1, 'exits non-zero');
  t.equal(r.stdout, '', 'nothing on stdout');
  const error = JSON.parse(r.stderr).error;
  t.equal(error.code, 'config_error');
  t.ok(error.message.includes(join(dataDir, 'pg')), 'names the folder it looked in');
  t.match(error.message, /DATA_DIR=.*DATABASE_URL=/s, 'says how to point it at the service');
  t.notOk(existsSync(dataDir), 'created no database (nor its folder)');
});
