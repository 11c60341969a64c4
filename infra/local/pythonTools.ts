import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installOnce, pathExists } from './installLock.ts';
import { repoRoot } from './kafkaJars.ts';
import { runToEnd } from './run.ts';

/**
 * The Python tools the tests drive (schemathesis, confluent-kafka, fastavro), pinned in
 * test/python/requirements.txt and installed from PyPI into `.cache/venv-<hash>` (git-ignored) on
 * the first run; later runs find its marker and skip pip entirely. The folder is named after the
 * requirements' hash because a venv's scripts carry its absolute path and cannot be moved into
 * place; the marker is written last, so a half-built venv never passes for complete.
 */
export const requirementsFile = join(repoRoot, 'test', 'python', 'requirements.txt');

/** The venv's bin folder (its `python`, `schemathesis`, ...), installing the pinned tools when needed. */
export async function pythonTools(): Promise<string> {
  const hash = createHash('sha256')
    .update(await readFile(requirementsFile))
    .digest('hex')
    .slice(0, 12);
  const dir = join(repoRoot, '.cache', `venv-${hash}`);
  const marker = join(dir, '.complete');
  await mkdir(join(repoRoot, '.cache'), { recursive: true });
  await installOnce(
    `${dir}.lock`,
    () => pathExists(marker),
    async () => {
      await rm(dir, { recursive: true, force: true });
      await runToEnd('python3', ['-m', 'venv', dir]);
      await runToEnd(join(dir, 'bin', 'python'), [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '-r',
        requirementsFile,
      ]);
      await writeFile(marker, new Date().toISOString() + '\n');
    },
  );
  return join(dir, 'bin');
}
