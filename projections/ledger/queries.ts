import type { Pool, Queryable } from '../../infra/postgres/pool.ts';
import { withTransaction } from '../../infra/postgres/pool.ts';
import type { HistoryEntry } from '../../events/account/history.ts';

/** A history entry of GET /credits/usage: the domain's ledger entry (services/domain/account/ledger.ts). */
export type LedgerEntry = HistoryEntry;

export interface LedgerBalance {
  remaining: number;
  used: number;
  unlimited: boolean;
  /** Stream version the projection has folded (0: the account is not known to it yet). */
  streamVersion: number;
}

export interface CreditUsagePage extends LedgerBalance {
  history: LedgerEntry[];
  total: number;
}

const NO_ACCOUNT: LedgerBalance = { remaining: 0, used: 0, unlimited: false, streamVersion: 0 };

export async function ledgerBalance(db: Queryable, accountId: string): Promise<LedgerBalance> {
  const r = await db.query<{ remaining: number; used: number; unlimited: boolean; stream_version: number }>(
    'SELECT remaining, used, unlimited, stream_version FROM ledger_accounts WHERE account_id = $1',
    [accountId],
  );
  const row = r.rows[0];
  return row
    ? { remaining: row.remaining, used: row.used, unlimited: row.unlimited, streamVersion: row.stream_version }
    : NO_ACCOUNT;
}

/**
 * One page of an account's history, newest first, and its balance, read in ONE snapshot
 * (REPEATABLE READ): the projection changes balance and entries together, so what this returns
 * always adds up (the sum of all deltas equals `remaining`).
 */
export async function creditUsage(
  pool: Pool,
  accountId: string,
  page: number,
  limit: number,
): Promise<CreditUsagePage> {
  return withTransaction(pool, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const balance = await ledgerBalance(tx, accountId);
    const total = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries WHERE account_id = $1', [
      accountId,
    ]);
    const rows = await tx.query<{
      type: LedgerEntry['type'];
      id: string;
      delta: number;
      refunded: boolean;
      url: string | null;
      project: string | null;
      created_at: Date;
    }>(
      `SELECT type, id, delta, refunded, url, project, created_at FROM ledger_entries
        WHERE account_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`,
      [accountId, limit, (page - 1) * limit],
    );
    return {
      ...balance,
      total: total.rows[0]!.n,
      history: rows.rows.map((r) => ({
        type: r.type,
        id: r.id,
        delta: r.delta,
        refunded: r.refunded,
        url: r.url,
        project: r.project,
        createdAt: r.created_at.toISOString(),
      })),
    };
  });
}

/** Every entry of an account, newest first (ledger verify compares them with the log's fold). */
export async function allLedgerEntries(pool: Pool, accountId: string): Promise<CreditUsagePage> {
  return creditUsage(pool, accountId, 1, 2_147_483_647);
}

/**
 * The folded balance with the stream version it reflects, beside the account stream's head: the
 * balance is current when the two agree (GET /me right after a purchase).
 */
export async function ledgerBalanceWithHead(
  db: Queryable,
  accountId: string,
  accountStreamId: string,
): Promise<{ remaining: number | null; current: boolean }> {
  const r = await db.query<{ remaining: number | null; folded: number | null; head: number | null }>(
    `SELECT l.remaining, l.stream_version AS folded,
            (SELECT max(stream_version) FROM events WHERE stream_id = $2) AS head
       FROM (SELECT 1) one LEFT JOIN ledger_accounts l ON l.account_id = $1`,
    [accountId, accountStreamId],
  );
  const row = r.rows[0]!;
  return { remaining: row.remaining, current: row.remaining !== null && Number(row.folded) >= Number(row.head ?? 0) };
}
