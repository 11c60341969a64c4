import cliProgress from 'cli-progress';
import {
  comparePositions,
  formatPosition,
  START,
  type EventEnvelope,
  type LogPosition,
} from '../../events/envelope.ts';
import { readLog } from '../../infra/eventStore/readLog.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { csvField } from './replayLedger.ts';
import { sleep } from '../../core/sleep.ts';
import { countEvents } from '../../infra/eventStore/lookups.ts';

export interface ExportOptions {
  /** A log position ("txid:seq", exclusive) or a time (events at or after it). */
  from?: { position: LogPosition } | { time: Date };
  types?: string[];
  accountId?: string;
  format: 'jsonl' | 'csv';
  /** tail: go on waiting for new events until stopped; export: stop at the log's end. */
  follow: boolean;
  progress: boolean;
}

const CSV_COLUMNS = [
  'position',
  'id',
  'type',
  'version',
  'accountId',
  'streamId',
  'streamVersion',
  'occurredAt',
  'causationId',
  'correlationId',
  'prevHash',
  'payload',
] as const;

export const exportHeader = (format: ExportOptions['format']): string =>
  format === 'csv' ? `${CSV_COLUMNS.join(',')}\n` : '';

export const exportLine = (e: EventEnvelope, format: ExportOptions['format']): string => {
  const row = { ...e, position: formatPosition(e.position), prevHash: e.prevHash ?? null };
  if (format === 'jsonl') return `${JSON.stringify(row)}\n`;
  return `${CSV_COLUMNS.map((c) => csvField(c === 'payload' ? JSON.stringify(e.payload) : row[c])).join(',')}\n`;
};

/** Which events an export keeps (the same rules whichever log it reads). */
export const exportFilter = (o: ExportOptions): ((e: EventEnvelope) => boolean) => {
  const since = o.from && 'time' in o.from ? o.from.time : undefined;
  const after = o.from && 'position' in o.from ? o.from.position : undefined;
  return (e) =>
    (!o.types || o.types.includes(e.type)) &&
    (!o.accountId || e.accountId === o.accountId) &&
    (!since || new Date(e.occurredAt) >= since) &&
    (!after || comparePositions(e.position, after) > 0);
};

/** The progress bar of a long export, on stderr (never mixed with the data on stdout). */
export const exportProgress = (total: number): cliProgress.SingleBar => {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2_000,
      format: 'events export [{bar}] {value}/{total} read, {written} written, eta {eta}s',
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { written: 0 });
  return bar;
};

const PAGE = 2_000;

/**
 * `events tail|export` from the store: the log in commit order (readLog: a late commit is waited
 * for, never skipped), filtered, one page at a time, so memory stays bounded whatever the size.
 */
export async function exportFromStore(
  pool: Pool,
  o: ExportOptions,
  write: (chunk: string) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<number> {
  let after = o.from && 'position' in o.from ? o.from.position : START;
  const keep = exportFilter(o);
  const bar = o.progress && !o.follow ? exportProgress(await countEvents(pool)) : undefined;
  await write(exportHeader(o.format));
  let written = 0;
  try {
    while (!signal?.aborted) {
      const page = await readLog(pool, { after, limit: PAGE });
      let chunk = '';
      for (const e of page) {
        if (keep(e)) {
          chunk += exportLine(e, o.format);
          written++;
        }
      }
      if (chunk) await write(chunk);
      if (page.length) after = page.at(-1)!.position;
      bar?.increment(page.length, { written });
      if (page.length < PAGE) {
        if (!o.follow) break;
        await sleep(500);
      }
    }
  } finally {
    bar?.stop();
  }
  return written;
}
