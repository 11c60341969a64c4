import { readFileSync } from 'node:fs';

/**
 * CPU time of one thread of this process, from Linux's /proc: Node 20 has no per-thread CPU clock
 * (process.threadCpuUsage came in 23). A pool thread names its kernel thread id when it takes a
 * task (threadEntry.mjs); the watchdog reads that thread's counters. Null where /proc is absent
 * (the pool then limits wall time).
 */
const TICK_MS = 10; // USER_HZ is 100 on every Linux the service runs on

export const threadCpuMs = (tid: number): number | null => {
  if (!tid) return null;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3 of the file, utime 14 and stime 15.
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
};
