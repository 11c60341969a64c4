import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from '../../infra/local/kafkaJars.ts';

/**
 * No engine warning on `npm ci` (issue 25): every package of the lockfile supports the oldest Node
 * the project says it runs on (package.json's engines), and the README names that same Node.
 */

// semver ships no types of its own; these are the two functions used.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');
const ours = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const oldest = semver.minVersion(ours)!.version;

t.test(`every locked package supports Node ${oldest}, the oldest package.json allows`, async (t) => {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const refusing = Object.entries(lock.packages)
    .filter(([, p]) => !Array.isArray(p.engines) && typeof p.engines?.node === 'string')
    .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
    .map(
      ([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${JSON.stringify(p.engines)}`,
    );
  t.same(refusing, [], `${Object.keys(lock.packages).length} packages`);
});

t.test('the README names the same Node', async (t) => {
  const named = /with Node (\d+\.\d+) or later/.exec(read('README.md'))?.[1];
  t.equal(named && semver.minVersion(named)!.version, oldest, `README: Node ${named}; package.json: ${ours}`);
});
