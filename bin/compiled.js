// The service runs as JavaScript that tsc built into dist/ (`npm run build`; npm ci runs it as
// `prepare`). A checkout whose TypeScript changed since that build is built again here, once,
// before anything runs: nothing is compiled on the fly while the service runs.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['core', 'events', 'services', 'projections', 'infra'];
const BUILD_INFO = join(root, 'dist', '.tsbuildinfo');

/** The newest modification time of the TypeScript sources and the build's settings. */
const newestSource = () => {
  let newest = Math.max(
    statSync(join(root, 'tsconfig.json')).mtimeMs,
    statSync(join(root, 'tsconfig.build.json')).mtimeMs,
  );
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of SOURCES) walk(join(root, dir));
  return newest;
};

const ensureBuilt = () => {
  if (existsSync(BUILD_INFO) && statSync(BUILD_INFO).mtimeMs >= newestSource()) return;
  process.stderr.write('building dist/ from the TypeScript sources (npm run build)…\n');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
};

/** Runs a module of the build: `entry` is its path under dist/ without the extension. */
export const runCompiled = async (entry) => {
  ensureBuilt();
  await import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);
};
