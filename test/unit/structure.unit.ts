import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../infra/local/kafkaJars.ts';
import { folderCycles, layerViolations, type ImportEdge } from '../helpers/folderGraph.ts';

/**
 * The layers as folders (DESIGN.md): no cycle between folders, and no import upwards. The graph
 * is dpdm's, type-only imports included; the rules are in test/helpers/folderGraph.ts.
 */
const SOURCES = ['core', 'events', 'infra', 'projections', 'services', 'bin'];

const importEdges = (): ImportEdge[] => {
  const dir = mkdtempSync(join(tmpdir(), 'structure-'));
  try {
    const out = join(dir, 'deps.json');
    const args = ['--no-tree', '--no-warning', '--no-progress', '--no-circular', '-T', 'false', '-o', out];
    const r = spawnSync(
      join(repoRoot, 'node_modules', '.bin', 'dpdm'),
      [...args, ...SOURCES.map((s) => `${s}/**/*.ts`)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error(`dpdm: ${r.stdout}${r.stderr}`);
    const tree = (JSON.parse(readFileSync(out, 'utf8')) as { tree: Record<string, { id: string | null }[] | null> })
      .tree;
    return Object.entries(tree).flatMap(([from, deps]) =>
      (deps ?? []).flatMap((d) =>
        d.id?.endsWith('.ts') && !d.id.includes('node_modules') ? [{ from, to: d.id }] : [],
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

t.test('folders: no cycle between them, no import upwards', async (t) => {
  const edges = importEdges();
  t.ok(edges.length > 500, `dpdm read the imports (${edges.length})`);
  t.strictSame(folderCycles(edges), [], 'folder cycles (each: the folders, and the imports that close it)');
  t.strictSame(layerViolations(edges), [], 'upward imports');
});

/** Source files by path from the root, with their text. */
const sourceFiles = (): { path: string; text: string }[] =>
  SOURCES.flatMap((dir) =>
    readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({ path: `${dir}/${f}`, text: readFileSync(join(repoRoot, dir, f), 'utf8') })),
  );

// What a process knows (events, inline read models, reactions) is registered at start-up by one
// function, not by importing a module: an import's side effect is easy to lose in a refactoring.
t.test('registration happens in services/registration.ts alone, never by an import', async (t) => {
  const files = sourceFiles();
  t.ok(files.length > 300, `read the sources (${files.length})`);
  const registering = files
    .filter(({ text }) => /^\s*(registerEvents|useInlineProjections|useReactions)\(/m.test(text))
    .map(({ path }) => path);
  t.strictSame(registering, ['services/registration.ts'], 'files that register');
  const sideEffects = files.filter(({ text }) => /^import '[^']+';$/m.test(text)).map(({ path }) => path);
  t.strictSame(sideEffects, [], 'imports for their side effect');
});

t.test('the rules see a cycle and an upward import when there is one', async (t) => {
  const edges = [
    { from: 'services/bulk/submit.ts', to: 'services/api/parse.ts' },
    { from: 'services/api/routes/bulk.ts', to: 'services/bulk/submit.ts' },
    { from: 'services/api/routes/bulk.ts', to: 'services/api/app.ts' },
    { from: 'infra/config.ts', to: 'services/api/app.ts' },
    { from: 'services/engine/cli.ts', to: 'infra/http/crawler.ts' },
    { from: 'services/domain/a/x.ts', to: 'events/a/e.ts' },
  ];
  t.strictSame(folderCycles(edges), [
    'services/api <-> services/bulk: services/api/routes/bulk.ts -> services/bulk/submit.ts; services/bulk/submit.ts -> services/api/parse.ts',
  ]);
  t.strictSame(layerViolations(edges), [
    'infra/config.ts -> services/api/app.ts (upwards)',
    'services/engine/cli.ts -> infra/http/crawler.ts (services/engine is pure)',
  ]);
});
