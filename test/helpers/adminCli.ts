import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { withTestKey } from './testKey.ts';

export interface CliResult {
  code: number | null;
  /** stdout parsed as JSON, or null when it printed nothing or something else (CSV). */
  json: any;
  stdout: string;
  /** The last JSON line of stderr (the CLI's error object), or its text. */
  stderr: any;
}

/** `npm run -s admin -- ...`, exactly as an operator types it. */
export async function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> {
  const child = spawn('npm', ['run', '-s', 'admin', '--', ...args], {
    env: withTestKey(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  const last = err
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  const json = (() => {
    try {
      return out.trim() ? JSON.parse(out) : null;
    } catch {
      return null;
    }
  })();
  return { code, json, stdout: out, stderr: last ? JSON.parse(last) : err.trim() || null };
}

/** The environment of a CLI or service child: the database chosen, never the suite's Kafka (embedded log). */
export const childEnv = (db: { DATABASE_URL?: string; DATA_DIR?: string }): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error', PORT: '0', ...db };
  delete env.KAFKA_BROKERS;
  if (!db.DATABASE_URL) delete env.DATABASE_URL;
  return env;
};
