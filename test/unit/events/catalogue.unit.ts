import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import avro from 'avsc';
import { catalogue, creditMovementTypes, typesOfStream } from '../../../events/catalogue.ts';
import { EVENTS_DOC, eventsDoc } from '../../../events/docs.ts';
import { avscFiles } from '../../../events/avscFiles.ts';
import { repoRoot } from '../../../infra/local/kafkaJars.ts';
import { ledgerProjection } from '../../../projections/ledger/projection.ts';

t.test('docs/events.md is what `npm run events:docs` generates from events/', async (t) => {
  t.ok(existsSync(EVENTS_DOC), 'docs/events.md is checked in');
  t.equal(readFileSync(EVENTS_DOC, 'utf8'), eventsDoc(), 'docs/events.md is current (run npm run events:docs)');
  const doc = eventsDoc();
  for (const d of catalogue) {
    t.match(doc, `#### \`${d.type}\` (version ${d.latest})`, `${d.type} is documented`);
    for (const field of Object.keys(d.schema.properties))
      t.match(doc, `| \`${field}\` |`, `${d.type}.${field} is documented`);
  }
});

t.test('stream membership and credit movements come from the declarations', async (t) => {
  t.same(
    [...ledgerProjection.canHandle].sort(),
    catalogue
      .filter((d) => d.stream === 'account')
      .map((d) => d.type)
      .sort(),
    'the ledger handles every account-stream event',
  );
  t.ok(typesOfStream('account').includes('AuditReleased'), 'admission events belong to the account stream');
  t.same([...creditMovementTypes].sort(), ['CreditCharged', 'CreditRefunded', 'CreditsAdjusted', 'CreditsPurchased']);
});

/**
 * Every version of every .avsc file ever committed in the history of this checkout (HEAD), from git.
 * Not `--all`: other branches' unmerged schemas are not published, and would read as "removed" here.
 */
function committedSchemas(): { path: string; commit: string; content: string }[] | string {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  try {
    if (git('rev-parse', '--is-shallow-repository').trim() === 'true')
      return 'the git history is shallow (fetch it in full to check old schemas)';
  } catch (e) {
    return `git history is unavailable: ${(e as Error).message.split('\n')[0]}`;
  }
  const out: { path: string; commit: string; content: string }[] = [];
  const log = git('log', 'HEAD', '--format=%H', '--name-only', '--diff-filter=AMR', '--', 'events/**/*.avsc');
  let commit = '';
  for (const line of log.split('\n')) {
    if (/^[0-9a-f]{40}$/.test(line)) commit = line;
    else if (line.endsWith('.avsc')) out.push({ path: line, commit, content: git('show', `${commit}:${line}`) });
  }
  return out;
}

const history = committedSchemas();
const skip = typeof history === 'string' ? `cannot check the schema history: ${history}` : false;
t.test(
  'every .avsc version ever committed stays backward and forward compatible with the current schemas',
  { skip },
  async (t) => {
    if (typeof history === 'string') return;
    t.ok(history.length > 0, `${history.length} committed schema versions found`);
    const current = new Map(
      avscFiles().map((f) => [f.path.slice(repoRoot.length + 1), avro.Type.forSchema(JSON.parse(f.content))]),
    );
    for (const old of history) {
      const m = /^(.*)\/([A-Za-z]+)\.v(\d+)\.avsc$/.exec(old.path)!;
      // The same type and version now, and every later version: each must read the old, and be read by it.
      const readers = [...current.entries()].filter(
        ([p]) => p.startsWith(`${m[1]}/${m[2]}.v`) && Number(/\.v(\d+)\.avsc$/.exec(p)![1]) >= Number(m[3]),
      );
      if (readers.length === 0) {
        t.fail(
          `${old.path} (commit ${old.commit.slice(0, 10)}) has no current schema: a published type or version was removed`,
        );
        continue;
      }
      const before = avro.Type.forSchema(JSON.parse(old.content));
      for (const [path, now] of readers) {
        for (const [reader, writer, way] of [
          [now, before, 'backward: the current reads the old'],
          [before, now, 'forward: the old reads the current'],
        ] as const) {
          try {
            reader.createResolver(writer);
          } catch (e) {
            t.fail(`${old.path} at ${old.commit.slice(0, 10)} vs ${path}: ${way}: ${(e as Error).message}`);
          }
        }
      }
    }
    t.pass('all committed schemas checked');
  },
);

t.test('the compatibility check refuses a breaking change', async (t) => {
  const before = avro.Type.forSchema({ type: 'record', name: 'X', fields: [{ name: 'a', type: 'string' }] });
  const addedWithoutDefault = avro.Type.forSchema({
    type: 'record',
    name: 'X',
    fields: [
      { name: 'a', type: 'string' },
      { name: 'b', type: 'long' },
    ],
  });
  const retyped = avro.Type.forSchema({ type: 'record', name: 'X', fields: [{ name: 'a', type: 'long' }] });
  t.throws(
    () => addedWithoutDefault.createResolver(before),
    'a field added without a default breaks backward compatibility',
  );
  t.throws(() => retyped.createResolver(before), 'a retyped field breaks it');
  const addedNullable = avro.Type.forSchema({
    type: 'record',
    name: 'X',
    fields: [
      { name: 'a', type: 'string' },
      { name: 'b', type: ['null', 'string'], default: null },
    ],
  });
  t.doesNotThrow(
    () => addedNullable.createResolver(before),
    'a nullable field with a null default is backward compatible',
  );
  t.doesNotThrow(() => before.createResolver(addedNullable), 'and forward compatible');
});
