import type { Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { eventually } from './db.ts';
import { withTestKey } from './testKey.ts';

/** `npm start` (services/main.ts) in a process of its own until the test ends; returns its base URL. */
export async function startService(
  t: Test,
  env: NodeJS.ProcessEnv,
  timeoutMs = 90_000,
): Promise<{ base: string; child: ChildProcess; output: () => string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: withTestKey(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    return code;
  };
  t.teardown(async () => {
    await stop();
  });
  await eventually(
    async () => /listening on (http:\/\/\S+)/.test(out) || child.exitCode !== null,
    timeoutMs,
    'the service to listen',
  );
  if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${out}`);
  return { base: /listening on (http:\/\/\S+)/.exec(out)![1]!, child, output: () => out, stop };
}
