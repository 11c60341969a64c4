import { accountStreamId } from '../../../events/account/index.ts';
import { loadStream } from '../../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../../infra/postgres/pool.ts';
import { accountDecider } from '../../domain/account/decider.ts';

/**
 * The account's balance as of now. The ledger projection is folded asynchronously, so right after
 * a purchase it can lag; then the balance is folded from the account stream itself (the truth),
 * so a client that just bought credits sees them. One query when the projection is current.
 */
export async function currentCredits(db: Queryable, accountId: string): Promise<number> {
  const r = await db.query<{ remaining: number | null; folded: number | null; head: number | null }>(
    `SELECT l.remaining, l.stream_version AS folded,
            (SELECT max(stream_version) FROM events WHERE stream_id = $2) AS head
       FROM (SELECT 1) one LEFT JOIN ledger_accounts l ON l.account_id = $1`,
    [accountId, accountStreamId(accountId)],
  );
  const row = r.rows[0]!;
  if (row.remaining !== null && Number(row.folded) >= Number(row.head ?? 0)) return row.remaining;
  const { state } = await loadStream(db as Parameters<typeof loadStream>[0], accountDecider, accountStreamId(accountId));
  return state.status === 'Open' ? state.balance : 0;
}
