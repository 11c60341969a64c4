/**
 * Submission to `completed`, each beside its limit measured in the same run: the engine alone on
 * the same content, in this process (auditContent, no I/O). The service runs in a process of its
 * own; the client POSTs and polls GET /audits/{id} every POLL_MS, so a figure includes the HTTP
 * round trips and up to POLL_MS of polling.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { auditContent } from '../services/engine/audit.ts';
import type { EngineInput } from '../services/engine/types.ts';
import { syntheticArticle } from './engine.ts';
import type { BenchRow } from './report.ts';

export const KEYWORD = 'descale espresso machine';
export const POLL_MS = 5;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The engine alone on `input`, after a warm-up run: median wall time, mean CPU time of the process
 * (V8's helper threads included) and of the thread that ran it (null where /proc is absent).
 */
export function engineAlone(input: EngineInput, runs = 9): { ms: number; cpuMs: number; threadCpuMs: number | null } {
  auditContent(input);
  const ms: number[] = [];
  const cpu0 = process.cpuUsage();
  const thread0 = statCpuMs('/proc/thread-self/stat');
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    auditContent(input);
    ms.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const thread1 = statCpuMs('/proc/thread-self/stat');
  const threadCpuMs = thread0 === null || thread1 === null ? null : (thread1 - thread0) / runs;
  return { ms: median(ms), cpuMs: (cpu.user + cpu.system) / 1000 / runs, threadCpuMs };
}

export interface Service {
  base: string;
  key: string;
  /** The service's process, for its CPU time (Linux /proc); none: no CPU rows. */
  pid?: number;
}

// Clock ticks of /proc/<pid>/stat: 100 a second on Linux.
const TICK_MS = 10;
/** utime + stime of a /proc stat file (a process's or a thread's), or null where it is absent. */
function statCpuMs(path: string): number | null {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** CPU time of a process and its threads so far, or null where /proc is absent. */
const processCpuMs = (pid: number | undefined): number | null =>
  pid === undefined ? null : statCpuMs(`/proc/${pid}/stat`);

/** CPU time so far of the process's engine threads (named by infra/workers/threadEntry.mjs). */
function engineThreadsCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  let sum = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() !== 'engine-pool') continue;
      sum += statCpuMs(`/proc/${pid}/task/${tid}/stat`) ?? 0;
    }
  } catch {
    return null; // a thread ended between the listing and the read: no figure this time
  }
  return sum;
}

/** GET /audits/{id} requests made by waitCompleted so far (the CPU rows count the service's answers to them). */
let polls = 0;

/** Polls the job until it ends; throws when it ends in error. */
export async function waitCompleted(svc: Service, id: string): Promise<void> {
  for (;;) {
    polls++;
    const r = await fetch(`${svc.base}/api/v1/audits/${id}`, { headers: { authorization: `Bearer ${svc.key}` } });
    const body = (await r.json()) as { status: string; errorMessage?: string };
    if (body.status === 'completed') return;
    if (body.status === 'error') throw new Error(`bench audit failed: ${body.errorMessage}`);
    await new Promise((r2) => setTimeout(r2, POLL_MS));
  }
}

/** POST /audits of each body in turn, each to `completed`: the times and the job ids. */
export async function submitToCompleted(svc: Service, bodies: object[]): Promise<{ ms: number[]; jobs: string[] }> {
  const ms: number[] = [];
  const jobs: string[] = [];
  for (const body of bodies) {
    const t0 = performance.now();
    const res = await fetch(`${svc.base}/api/v1/audits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${svc.key}` },
      body: JSON.stringify(body),
    });
    const { id } = (await res.json()) as { id: string };
    await waitCompleted(svc, id);
    ms.push(performance.now() - t0);
    jobs.push(id);
  }
  return { ms, jobs };
}

const spread = (ms: number[]) => `min ${Math.round(Math.min(...ms))} ms, max ${Math.round(Math.max(...ms))} ms`;

export interface LatencyRows {
  rows: BenchRow[];
  /** The page audits' job ids (apply's bench uses them). */
  pageJobs: string[];
  /** The engine alone on the page, the limit of the rows that compare with it. */
  engineOnPageMs: number;
}

/**
 * The 2,000-word page by URL (median of 15) and a 150-word text (median of 12), each beside the
 * engine alone on the same content, on the log named `logName`.
 */
export async function latencyRows(
  svc: Service,
  logName: string,
  page: { url: string; html: string },
): Promise<LatencyRows> {
  const text = syntheticArticle(150);
  const onPageAlone = engineAlone({ content: page.html, format: 'html', url: page.url, keyword: KEYWORD });
  const onTextAlone = engineAlone({ content: text, format: 'text', title: KEYWORD, url: null, keyword: KEYWORD });
  // One audit of each kind first, as the engine alone is timed after a warm-up run: the first
  // audits after a start also start the engine's threads and load its models, a one-off cost
  // reported on its own row rather than spread over the rows per audit.
  const cpuStart = processCpuMs(svc.pid);
  await submitToCompleted(svc, [
    { url: `${page.url}?${logName}=warm-up`, keyword: KEYWORD },
    { content: `${text}\n\nWarm-up.`, keyword: KEYWORD },
  ]);
  const cpu0 = processCpuMs(svc.pid);
  const engine0 = engineThreadsCpuMs(svc.pid);
  const polls0 = polls;
  const onPage = await submitToCompleted(
    svc,
    Array.from({ length: 15 }, (_, i) => ({ url: `${page.url}?${logName}=${i}`, keyword: KEYWORD })),
  );
  const cpu1 = processCpuMs(svc.pid);
  const engine1 = engineThreadsCpuMs(svc.pid);
  const polls1 = polls;
  // Each text differs (a number at its end), so no run meets another's stored content.
  const onText = await submitToCompleted(
    svc,
    Array.from({ length: 12 }, (_, i) => ({ content: `${text}\n\nNote ${i}.`, keyword: KEYWORD })),
  );
  const cpu2 = processCpuMs(svc.pid);
  const polls2 = polls;
  const rows: BenchRow[] = [
    {
      name: `submission to completed, local 2,000-word page, ${logName} (median of 15)`,
      value: median(onPage.ms),
      unit: 'ms',
      ceiling: { name: 'engine alone on the page', value: onPageAlone.ms },
      target: '≤ 1.5 × engine',
      note: spread(onPage.ms),
    },
    {
      name: `submission to completed, 150-word text, ${logName} (median of 12)`,
      value: median(onText.ms),
      unit: 'ms',
      ceiling: { name: 'engine alone on the text', value: onTextAlone.ms },
      target: '< 60 ms',
      note: spread(onText.ms),
    },
  ];
  if (cpuStart !== null && cpu0 !== null && cpu1 !== null && cpu2 !== null)
    rows.push(
      ...cpuRows(logName, { start: cpuStart, warm: cpu0, pages: cpu1, texts: cpu2 }, [onPageAlone, onTextAlone], {
        page: polls1 - polls0,
        text: polls2 - polls1,
        engineOnPages: engine0 === null || engine1 === null ? null : engine1 - engine0,
      }),
    );
  return { pageJobs: onPage.jobs, engineOnPageMs: onPageAlone.ms, rows };
}

/**
 * CPU time does not depend on the machine's load as wall time does: the service's whole process
 * (API, workers, subscribers, the engine's thread; PostgreSQL and Kafka not included) per audit,
 * after the warm-up, polling included (a GET every POLL_MS until completed); and the engine's own
 * threads on the pages beside the thread that ran the engine alone (V8's helpers in neither).
 */
function cpuRows(
  logName: string,
  cpu: { start: number; warm: number; pages: number; texts: number },
  [onPage, onText]: ReturnType<typeof engineAlone>[],
  n: { page: number; text: number; engineOnPages: number | null },
): BenchRow[] {
  const pollNote = (count: number, audits: number) =>
    `with ${(count / audits).toFixed(1)} GET polls an audit (every ${POLL_MS} ms)`;
  const rows: BenchRow[] = [
    {
      name: `service CPU of the first two audits after a start (page and text: threads started, engine loaded), ${logName}`,
      value: cpu.warm - cpu.start,
      unit: 'ms',
    },
    {
      name: `service CPU per audit (one process, every role), 2,000-word page, ${logName}`,
      value: (cpu.pages - cpu.warm) / 15,
      unit: 'ms',
      ceiling: { name: 'engine alone, CPU', value: onPage!.cpuMs },
      note: pollNote(n.page, 15),
    },
    {
      name: `service CPU per audit (one process, every role), 150-word text, ${logName}`,
      value: (cpu.texts - cpu.pages) / 12,
      unit: 'ms',
      ceiling: { name: 'engine alone, CPU', value: onText!.cpuMs },
      note: pollNote(n.text, 12),
    },
  ];
  if (n.engineOnPages !== null && onPage!.threadCpuMs !== null)
    rows.push({
      name: `the engine's pool threads' CPU per audit, 2,000-word page, ${logName}`,
      value: n.engineOnPages / 15,
      unit: 'ms',
      ceiling: { name: "engine alone, its thread's CPU", value: onPage!.threadCpuMs },
      note: 'preparation and scoring; 10 ms clock ticks summed over the audits',
    });
  return rows;
}
