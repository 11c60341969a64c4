import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './kafkaJars.ts';

/**
 * The Python tools the tests drive (schemathesis, confluent-kafka, fastavro), pinned in
 * test/python/requirements.txt and installed from PyPI into `.cache/venv-<hash>` (git-ignored) on
 * the first run; later runs find its marker and skip pip entirely. The folder is named after the
 * requirements' hash because a venv's scripts carry its absolute path and cannot be moved into
 * place: one process builds it under a lock (mkdir is atomic), the others wait for its marker, and a
 * half-built venv never passes for complete.
 */
export const requirementsFile = join(repoRoot, 'test', 'python', 'requirements.txt');
const MARKER = '.complete';
const STALE_LOCK_MS = 15 * 60_000;

/** The venv's bin folder (its `python`, `schemathesis`, ...), installing the pinned tools when needed. */
export async function pythonTools(): Promise<string> {
  const hash = createHash('sha256').update(await readFile(requirementsFile)).digest('hex').slice(0, 12);
  const dir = join(repoRoot, '.cache', `venv-${hash}`);
  const lock = `${dir}.lock`;
  await mkdir(join(repoRoot, '.cache'), { recursive: true });
  for (;;) {
    if (await exists(join(dir, MARKER))) return join(dir, 'bin');
    if (await takeLock(lock)) break;
    await sleep(1000);
  }
  try {
    await rm(dir, { recursive: true, force: true });
    await run('python3', ['-m', 'venv', dir]);
    await run(join(dir, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirementsFile]);
    await writeFile(join(dir, MARKER), new Date().toISOString() + '\n');
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
  return join(dir, 'bin');
}

async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch {
    // A lock left by a process that died mid-install is taken over once it is old enough.
    const s = await stat(lock).catch(() => null);
    if (s && Date.now() - s.mtimeMs > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    return false;
  }
}

const exists = (path: string) => stat(path).then(() => true, () => false);

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}
