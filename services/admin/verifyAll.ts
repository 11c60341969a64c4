import cliProgress from 'cli-progress';
import type { Pool } from '../../infra/postgres/pool.ts';
import { verifyLedger, type LedgerReport } from './verifyLedger.ts';
import { countStreamsOpenedBy, streamsOpenedBy } from '../../infra/eventStore/lookups.ts';

export interface VerifyAllReport {
  accounts: number;
  ok: number;
  failed: number;
  /** The first failing reports (at most `keep`); the count above is complete. */
  failures: LedgerReport[];
}

const PAGE = 500;

/**
 * `ledger verify --all`: every account, one page of ids at a time (keyset over the stream index),
 * each verified and dropped, so memory stays bounded by one page and the failures kept. The
 * progress bar goes to stderr, on a terminal or when asked.
 */
export async function verifyAllLedgers(
  pool: Pool,
  options: { progress: boolean; keep?: number; waitMs?: number },
): Promise<VerifyAllReport> {
  const keep = options.keep ?? 100;
  const total = await countStreamsOpenedBy(pool, 'AccountOpened');
  const bar = options.progress
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          noTTYOutput: true,
          notTTYSchedule: 2_000,
          format: 'ledger verify [{bar}] {value}/{total} accounts, {failed} failed, eta {eta}s',
          etaBuffer: 200,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(total, 0, { failed: 0 });
  const report: VerifyAllReport = { accounts: 0, ok: 0, failed: 0, failures: [] };
  let after = '';
  try {
    for (;;) {
      const page = await streamsOpenedBy(pool, 'AccountOpened', after, PAGE);
      for (const { accountId } of page) {
        const r = await verifyLedger(pool, accountId, options.waitMs ?? 2_000);
        report.accounts++;
        if (r.ok) report.ok++;
        else {
          report.failed++;
          if (report.failures.length < keep) report.failures.push(r);
        }
        bar?.increment(1, { failed: report.failed });
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.streamId;
    }
  } finally {
    bar?.stop();
  }
  return report;
}
