// The pool threads' entry (piscina's filename). Plain JavaScript because a worker thread starts
// without the main thread's loaders: on Node 20 the --import hooks tsx registers do not reach
// workers, so a TypeScript task module is loaded through tsx's own API, a compiled one directly.
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';

const modules = new Map();

const load = (href) => {
  let module = modules.get(href);
  if (!module) {
    module = href.endsWith('.ts')
      ? import('tsx/esm/api').then((tsx) => tsx.tsImport(href, import.meta.url))
      : import(href);
    modules.set(href, module);
  }
  return module;
};

/** This thread's kernel id (Linux: /proc/thread-self is "<pid>/task/<tid>"); 0 elsewhere. */
const threadId = (() => {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop()) || 0;
  } catch {
    return 0;
  }
})();

// Named, so that the operating system's tools (top -H, ps -L) and the bench (bench/pipeline.ts)
// tell the engine's CPU apart from the event loop's: Node leaves every thread named "node".
try {
  writeFileSync('/proc/thread-self/comm', 'engine-pool');
} catch {
  // Not Linux: the name is only a label.
}

/** This thread's CPU time in ms so far, as infra/workers/threadCpu.ts reads it. */
const cpuMs = () => {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
};

/**
 * Runs export `name` of module `file` (a URL) with `input`. `started` (shared with the caller's
 * watchdog): when the task began (ms), this thread's kernel id, its CPU time then (ms).
 */
export default async function run({ file, name, input, started }) {
  const module = await load(file); // once per thread: not counted against the task's limit
  started[1] = threadId;
  started[2] = cpuMs();
  started[0] = Date.now();
  return module[name](input);
}
