/**
 * Auditor tools over a large log: `ledger replay` and the hash-chain check of `ledger verify` over
 * every account of LEDGER_BENCH_EVENTS ledger events (default 1,000,000), time and peak memory,
 * beside a ceiling from the same run: a raw SELECT of the same rows, account by account.
 */
import { accountStreamId } from '../events/account/index.ts';
import { checkChain } from '../infra/eventStore/hashChain.ts';
import { createLogger } from '../infra/logger.ts';
import type { Pool } from '../infra/postgres/pool.ts';
import { replayLedger } from '../services/admin/replayLedger.ts';
import type { BenchRow } from './report.ts';
import { seedLedger } from './seedLedger.ts';
import { openBenchStack } from './stack.ts';
import { registerService } from '../services/registration.ts';

const log = createLogger('bench', 'warn');

/** Runs fn, sampling the process's resident memory; returns ms and the peak RSS above the start, in MB. */
async function measured(fn: () => Promise<void>): Promise<{ ms: number; peakMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakMb: (peak - base) / 2 ** 20 };
}

const eachAccount = async (pool: Pool, ids: string[], fn: (id: string) => Promise<void>) => {
  for (const id of ids) await fn(id);
};

export async function benchLedger(): Promise<BenchRow[]> {
  registerService();
  const target = Number(process.env.LEDGER_BENCH_EVENTS ?? 1_000_000);
  const stack = await openBenchStack(log, { kafka: false });
  try {
    const { pool } = await stack.database();
    // About 480 events per account at 300 random steps; written straight into the store (seedLedger).
    const seeding = performance.now();
    const ids = await seedLedger(pool, { events: target, steps: 300, seed: 1 });
    await pool.query('ANALYZE events');
    log.warn({ ms: Math.round(performance.now() - seeding) }, 'ledger bench: seeded');
    const events = Number((await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n);
    const raw = await measured(() =>
      eachAccount(pool, ids, async (id) => {
        await pool.query(
          'SELECT id, type, version, occurred_at, payload, prev_hash, tx_id::text, seq FROM events WHERE stream_id = $1 ORDER BY stream_version',
          [accountStreamId(id)],
        );
      }),
    );
    let entries = 0;
    const replay = await measured(() =>
      eachAccount(pool, ids, async (id) => {
        entries += (await replayLedger(pool, id)).entries.length;
      }),
    );
    const verify = await measured(() =>
      eachAccount(pool, ids, async (id) => {
        const c = await checkChain(pool, accountStreamId(id));
        if (c.problems.length) throw new Error(`${id}: ${c.problems[0]!.message}`);
      }),
    );
    const perSecond = (ms: number) => (events / ms) * 1000;
    const note = `${events.toLocaleString('en-US')} events, ${ids.length} accounts, ${entries.toLocaleString('en-US')} credit movements`;
    return [
      {
        name: `ledger replay, all accounts (${note})`,
        value: perSecond(replay.ms),
        unit: 'events/s',
        ceiling: { name: 'raw SELECT of the same rows', value: perSecond(raw.ms) },
      },
      {
        name: 'ledger replay: time',
        value: replay.ms / 1000,
        unit: 's',
        ceiling: { name: 'raw SELECT', value: raw.ms / 1000 },
      },
      {
        name: 'ledger replay: peak memory above start',
        value: replay.peakMb,
        unit: 'MB',
        ceiling: { name: 'raw SELECT', value: Math.max(raw.peakMb, 0.01) },
      },
      {
        name: 'ledger verify (hash chain), all accounts',
        value: perSecond(verify.ms),
        unit: 'events/s',
        ceiling: { name: 'raw SELECT of the same rows', value: perSecond(raw.ms) },
      },
      {
        name: 'ledger verify: time',
        value: verify.ms / 1000,
        unit: 's',
        ceiling: { name: 'raw SELECT', value: raw.ms / 1000 },
      },
      {
        name: 'ledger verify: peak memory above start',
        value: verify.peakMb,
        unit: 'MB',
        ceiling: { name: 'raw SELECT', value: Math.max(raw.peakMb, 0.01) },
      },
    ];
  } finally {
    await stack.stop();
  }
}
