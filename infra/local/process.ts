import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Resolves when the child has exited (at once if it already has). */
export const exited = (child: ChildProcess): Promise<void> =>
  hasExited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * Stops one process we started, by its pid only: `signal` first, SIGKILL once `graceMs` has passed.
 * Never by name, never a process group: other runs on the machine are not ours.
 */
export async function terminate(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (hasExited(child)) return;
  const done = exited(child);
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([done, late])) === 'late' && !hasExited(child)) {
    child.kill('SIGKILL');
    await done;
  }
  clearTimeout(timer);
}

/** The last `lines` lines of a text file, or a note saying why there are none. */
export async function tail(file: string, lines = 40): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch (error) {
    return `(no log at ${file}: ${(error as Error).message})`;
  }
}
