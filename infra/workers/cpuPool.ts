import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { AppError } from '../../core/errors.ts';
import { repoRoot } from '../local/kafkaJars.ts';
import { threadCpuMs } from './threadCpu.ts';
import { valueOf, type TaskOutcome } from './workerTask.ts';
import { defaultCpuPoolSettings, type CpuPoolSettings } from './cpuPoolSettings.ts';

/**
 * The one pool of worker threads for CPU work (the audit engine, apply's rewrite and scoring):
 * nothing CPU-bound runs on an event loop that also serves requests, leases and heartbeats. A
 * task names its module and export (`workerTask` in a services file), which threadEntry.mjs
 * loads; piscina keeps the threads and the queue. A task that runs past the time limit has its
 * thread terminated (the only way to stop synchronous code) and ends in AppError('audit_failed'):
 * the caller's work fails instead of holding a thread for ever. The limit is the thread's own CPU time (threadCpu.ts), wall time
 * where the kernel does not tell.
 */
let settings: CpuPoolSettings = defaultCpuPoolSettings();
let pool: Piscina | null = null;

/** Settings for the pool this process creates at its first task (start-up calls it once). */
export const configureCpuPool = (s: CpuPoolSettings): void => {
  settings = s;
};

const poolOf = (): Piscina => {
  pool ??= new Piscina({
    // From the source tree in both modes: tsc builds dist/ from TypeScript only.
    filename: pathToFileURL(join(repoRoot, 'infra', 'workers', 'threadEntry.mjs')).href,
    minThreads: 0,
    maxThreads: settings.threads,
    // Below the event loop's priority (Linux, via @napi-rs/nice): a busy engine thread yields the
    // core to the thread that answers requests and keeps leases alive.
    niceIncrement: 5,
    // A thread loads the engine once (seconds: the language model, the word lists); keep it.
    idleTimeout: Infinity,
  });
  return pool;
};

export class CpuTimeLimitError extends AppError {
  constructor(limitMs: number) {
    super('audit_failed', `The content could not be analysed within the time limit of ${limitMs / 1000} s.`);
  }
}

/** How often the watchdog looks at a running task's thread. */
const WATCH_MS = 500;

/**
 * Runs `name` of module `file` (a URL) with `input` on a pool thread. The limit is the thread's
 * CPU time from the moment it takes the task (threadEntry.mjs fills the shared `started` slots):
 * neither the wait in the queue nor a machine busy with other work counts against an audit.
 */
export async function runOnPool<I, O>(file: URL, name: string, input: I): Promise<O> {
  const started = new Float64Array(new SharedArrayBuffer(3 * 8));
  const abort = new AbortController();
  const limitMs = settings.timeLimitMs;
  let timer: NodeJS.Timeout | undefined;
  const watch = () => {
    const [at = 0, tid = 0, cpuAtStart = 0] = started;
    const cpu = at === 0 ? null : threadCpuMs(tid);
    const used = at === 0 ? 0 : cpu !== null ? cpu - cpuAtStart : Date.now() - at;
    if (used >= limitMs) return abort.abort();
    timer = setTimeout(watch, Math.min(WATCH_MS, limitMs - used));
    timer.unref();
  };
  watch();
  try {
    const task = { file: file.href, name, input, started };
    const outcome = (await poolOf().run(task, { signal: abort.signal })) as TaskOutcome<O>;
    return valueOf(outcome);
  } catch (e) {
    if (abort.signal.aborted) throw new CpuTimeLimitError(limitMs);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** Ends the pool's threads (the process's stop). */
export async function closeCpuPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}

/** The URL of a worker module beside `from` (an import.meta.url), with the caller's own extension (.ts or .js). */
export const moduleBeside = (from: string, name: string): URL => {
  const ext = /\.[cm]?[jt]s$/.exec(new URL(from).pathname)?.[0] ?? '.js';
  return new URL(`./${name}${ext}`, from);
};
