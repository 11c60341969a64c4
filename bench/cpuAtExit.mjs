// Preloaded into a process the start-up bench times (`node --import ./bench/cpuAtExit.mjs ...`): at
// exit it appends the process's own CPU time (user + system, ms) to BENCH_CPU_FILE, since the
// parent's clock counts the waits of a loaded machine too.
import { appendFileSync } from 'node:fs';
import process from 'node:process';

const out = process.env.BENCH_CPU_FILE;
if (out)
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    appendFileSync(out, `${(user + system) / 1000}\n`);
  });
