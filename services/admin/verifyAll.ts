import cliProgress from 'cli-progress';
import type { Pool } from '../../infra/postgres/pool.ts';
import { verifyLedger, type LedgerReport } from './verifyLedger.ts';

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
export async function verifyAllLedgers(pool: Pool, options: { progress: boolean; keep?: number; waitMs?: number }): Promise<VerifyAllReport> {
  const keep = options.keep ?? 100;
  const total = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_version = 1 AND type = 'AccountOpened'`)).rows[0]!.n;
  const bar = options.progress
    ? new cliProgress.SingleBar({ stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2_000, format: 'ledger verify [{bar}] {value}/{total} accounts, {failed} failed, eta {eta}s', etaBuffer: 200 }, cliProgress.Presets.shades_classic)
    : undefined;
  bar?.start(total, 0, { failed: 0 });
  const report: VerifyAllReport = { accounts: 0, ok: 0, failed: 0, failures: [] };
  let after = '';
  try {
    for (;;) {
      const page = await pool.query<{ account_id: string; stream_id: string }>(
        `SELECT account_id, stream_id FROM events WHERE stream_version = 1 AND type = 'AccountOpened' AND stream_id > $1 ORDER BY stream_id LIMIT $2`,
        [after, PAGE],
      );
      for (const { account_id } of page.rows) {
        const r = await verifyLedger(pool, account_id, options.waitMs ?? 2_000);
        report.accounts++;
        if (r.ok) report.ok++;
        else {
          report.failed++;
          if (report.failures.length < keep) report.failures.push(r);
        }
        bar?.increment(1, { failed: report.failed });
      }
      if (page.rows.length < PAGE) break;
      after = page.rows.at(-1)!.stream_id;
    }
  } finally {
    bar?.stop();
  }
  return report;
}
