import cliProgress from 'cli-progress';
import { bulkStreamId } from '../../events/bulk/events.ts';
import { loadStream } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { bulkDecider, countsOf, creditsChargedOf, isFinished, type BulkState } from '../domain/bulk/decider.ts';
import { AppError } from '../../core/errors.ts';
import { sleep } from '../../core/sleep.ts';

/** The final line: what the batch ended with (the same counts as GET /audits/bulk/{id}). */
const summaryOf = (s: BulkState) => ({
  id: s.bulkId,
  status: s.status,
  counts: countsOf(s),
  creditsCharged: creditsChargedOf(s),
  creditsRefunded: s.creditsRefunded,
});

/** `bulk watch`'s run: the progress bar and entry lines on stderr, then the final counts. */
export async function watchBulk(pool: Pool, o: { bulkId: string; intervalMs: number }) {
  let state = (await loadStream(pool, bulkDecider, bulkStreamId(o.bulkId))).state;
  if (state.status === 'None') throw new AppError('not_found', `no batch ${o.bulkId}`);
  const bars = new cliProgress.MultiBar(
    {
      format:
        '{bar} {percentage}% | {value}/{total} | {status} | completed {completed} failed {failed} skipped {skipped}',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = (s: BulkState) => ({ status: s.status, ...countsOf(s) });
  const ended = (s: BulkState) => s.entries.filter((e) => e.status !== 'queued' && e.status !== 'running').length;
  const bar = bars.create(state.entries.length, ended(state), payload(state));
  const reported = new Set<number>();
  for (;;) {
    state.entries.forEach((e, i) => {
      if (reported.has(i) || e.status === 'queued' || e.status === 'running') return;
      reported.add(i);
      bars.log(
        `${String(i + 1).padStart(3)} ${e.status.padEnd(9)} ${e.cqs === null ? '' : `CQS ${e.cqs} `}${e.url}${e.error ? ` (${e.error})` : ''}\n`,
      );
    });
    bar.update(ended(state), payload(state));
    if (isFinished(state)) break;
    await sleep(o.intervalMs);
    state = (await loadStream(pool, bulkDecider, bulkStreamId(o.bulkId))).state;
  }
  bars.stop();
  return { output: summaryOf(state), ok: true };
}
