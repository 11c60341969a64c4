import { accountStreamId } from '../../../events/account/index.ts';
import { loadStream } from '../../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../../infra/postgres/pool.ts';
import { ledgerBalanceWithHead } from '../../../projections/ledger/queries.ts';
import { accountDecider } from '../../domain/account/decider.ts';

/**
 * The account's balance as of now. The ledger projection is folded asynchronously, so right after
 * a purchase it can lag; then the balance is folded from the account stream itself (the truth),
 * so a client that just bought credits sees them. One query when the projection is current.
 */
export async function currentCredits(db: Queryable, accountId: string): Promise<number> {
  const folded = await ledgerBalanceWithHead(db, accountId, accountStreamId(accountId));
  if (folded.current) return folded.remaining!;
  const { state } = await loadStream(
    db as Parameters<typeof loadStream>[0],
    accountDecider,
    accountStreamId(accountId),
  );
  return state.status === 'Open' ? state.balance : 0;
}
