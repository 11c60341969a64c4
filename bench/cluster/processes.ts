import { spawn, type ChildProcess } from 'node:child_process';
import { exited, hasExited } from '../../infra/local/process.ts';

/**
 * The service's processes for the soak: each role group twice (instances a and b), every one
 * restarted when it ends until the soak stops, its exits counted (a process that dies of a fault
 * is a finding, even when its twin carries on).
 */
export interface ServiceProcess {
  name: string;
  roles: string;
  child(): ChildProcess;
  up(): boolean;
}

export function startServiceProcesses(
  groups: { name: string; roles: string; env: NodeJS.ProcessEnv }[],
  say: (s: string) => void,
): { processes: ServiceProcess[]; exits: Record<string, number>; stop(): Promise<void> } {
  let stopping = false;
  const exits: Record<string, number> = {};
  const processes = groups.map((g) => {
    let child!: ChildProcess;
    let up = false;
    const start = () => {
      up = false;
      const c = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
        env: { ...g.env, ROLES: g.roles },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = c;
      c.stdout!.on('data', (d: Buffer) => {
        if (/audit service (listening|running)/.test(String(d))) up = true;
      });
      let lastErr = '';
      c.stderr!.on('data', (d: Buffer) => (lastErr = (lastErr + String(d)).slice(-4000)));
      c.once('exit', (code, signal) => {
        up = false;
        if (stopping) return;
        exits[g.name] = (exits[g.name] ?? 0) + 1;
        const cause = lastErr.split('\n').find((l) => /Error|error"/.test(l)) ?? lastErr.trim().split('\n').pop();
        say(`${g.name} exited (${code ?? signal}); restarting. ${cause?.slice(0, 600) ?? ''}`);
        setTimeout(() => !stopping && start(), 500);
      });
    };
    start();
    return { name: g.name, roles: g.roles, child: () => child, up: () => up };
  });
  return {
    processes,
    exits,
    async stop() {
      stopping = true;
      await Promise.all(
        processes.map(async (p) => {
          const c = p.child();
          if (hasExited(c)) return;
          c.kill('SIGCONT'); // a paused one could not handle SIGTERM
          c.kill('SIGTERM');
          const late = setTimeout(() => c.kill('SIGKILL'), 20_000);
          await exited(c);
          clearTimeout(late);
        }),
      );
    },
  };
}
