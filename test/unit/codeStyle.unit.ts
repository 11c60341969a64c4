import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../infra/local/kafkaJars.ts';

/**
 * The house rules a reviewer should not have to check by hand: ESLint (typescript-eslint's
 * recommended rules and import-x/no-cycle), Prettier's formatting, and no import cycle at all —
 * dpdm follows `import type` too, which import-x/no-cycle skips.
 */
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const run = (name: string, args: string[]) =>
  spawnSync(bin(name), args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

t.test('ESLint finds nothing', async (t) => {
  const r = run('eslint', ['.', '--max-warnings', '0']);
  t.equal(r.status, 0, `eslint:\n${r.stdout}${r.stderr}`);
});

t.test('the code is formatted with Prettier', async (t) => {
  const r = run('prettier', ['--check', '.', '--log-level', 'warn']);
  t.equal(r.status, 0, `prettier --check (run \`npx prettier --write .\`):\n${r.stdout}${r.stderr}`);
});

t.test('no import cycle, type-only imports included', async (t) => {
  const globs = ['core', 'events', 'infra', 'projections', 'services', 'bench', 'test'].map((d) => `${d}/**/*.ts`);
  const r = run('dpdm', [
    '--no-tree',
    '--no-warning',
    '--no-progress',
    '-T',
    'false',
    '--exit-code',
    'circular:1',
    ...globs,
  ]);
  t.equal(r.status, 0, `dpdm:\n${r.stdout}${r.stderr}`);
});
