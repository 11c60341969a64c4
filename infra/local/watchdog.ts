import { spawn } from 'node:child_process';

/**
 * Kills a server we started if this Node process dies without stopping it (SIGKILL, OOM, a crash,
 * `process.exit` somewhere): exit hooks do not run on SIGKILL, so the guard lives outside Node.
 *
 * A tiny `sh` holds the read end of a pipe whose write end only this process has. It blocks on
 * `read`; when this process is gone, the kernel closes the pipe, `read` returns EOF and the shell
 * sends `signal` to the pid, waits `graceSeconds`, then SIGKILLs it and removes `removeDir` if given.
 * It runs in its own session (detached) so a Ctrl-C in the terminal does not kill the guard first.
 * On a clean stop, `disarm()` kills the guard before the server is stopped, so it never signals a
 * pid that may have been reused.
 */
const SCRIPT = `
while read -r _; do :; done
if kill -0 "$1" 2>/dev/null; then
  kill -"$2" "$1" 2>/dev/null
  i=0
  while kill -0 "$1" 2>/dev/null && [ "$i" -lt "$3" ]; do sleep 1; i=$((i+1)); done
  kill -KILL "$1" 2>/dev/null
fi
if [ -n "$4" ]; then rm -rf -- "$4"; fi
`;

export interface Watchdog {
  disarm(): void;
}

export function watchdog(
  pid: number,
  opts: { signal: 'TERM' | 'INT'; graceSeconds: number; removeDir?: string },
): Watchdog {
  const child = spawn(
    'sh',
    ['-c', SCRIPT, 'stack-watchdog', String(pid), opts.signal, String(opts.graceSeconds), opts.removeDir ?? ''],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    },
  );
  // Neither the guard nor its pipe may keep this process alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  return {
    disarm() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
