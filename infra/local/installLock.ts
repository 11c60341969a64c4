import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sleep } from '../../core/sleep.ts';

const STALE_LOCK_MS = 15 * 60_000;

/**
 * Runs `install` unless `isDone()` already holds, in one process at a time (mkdir is atomic), so
 * that test files starting together never run two installs of the same tool; the others wait for
 * it to finish. A lock left by a process that died mid-install is taken over once it is stale.
 */
export async function installOnce(
  lock: string,
  isDone: () => Promise<boolean>,
  install: () => Promise<void>,
): Promise<void> {
  await mkdir(dirname(lock), { recursive: true });
  for (;;) {
    if (await isDone()) return;
    if (await takeLock(lock)) break;
    await sleep(1000);
  }
  try {
    if (!(await isDone())) await install();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock, { recursive: false });
    return true;
  } catch {
    const s = await stat(lock).catch(() => null);
    if (s && Date.now() - s.mtimeMs > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    return false;
  }
}

export const pathExists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );
