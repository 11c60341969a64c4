import { accountStreamId } from '../../events/account/index.ts';
import { loadStream } from '../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { accountDecider } from '../domain/account/decider.ts';

/**
 * The account's webhook secret as its stream says now (spec 2.1: one per account), read at each
 * attempt so a delivery always signs with the current secret. Null when there is no account.
 */
export async function signingSecret(db: Queryable, accountId: string): Promise<string | null> {
  const { state } = await loadStream(db, accountDecider, accountStreamId(accountId));
  return state.status === 'Open' ? state.webhookSecret : null;
}
