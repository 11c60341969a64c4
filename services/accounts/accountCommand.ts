import { accountStreamId } from '../../events/account/index.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import { decideInTransaction, transact, type EventMeta } from '../../infra/eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import { accountDecider, type AccountCommand, type AccountState } from '../domain/account/decider.ts';

export type AccountCommandRequest = EventMeta & { accountId: string } & (
    { command: AccountCommand } | { commands: readonly AccountCommand[] }
  );

export interface AccountCommandResult {
  events: EventEnvelope[];
  state: AccountState;
}

/**
 * Decides one account command, or several on the evolving state (opening an account with its first
 * key and credits), in the caller's transaction. The accounts read model follows inline.
 */
export const runAccountCommandInTransaction = (
  tx: PoolClient,
  req: AccountCommandRequest,
): Promise<AccountCommandResult> =>
  decideInTransaction<AccountCommand, AccountState>(tx, {
    ...req,
    decider: accountDecider,
    streamId: accountStreamId(req.accountId),
  });

/** The same in a transaction of its own, decided again on a concurrency conflict. */
export const runAccountCommand = (pool: Pool, req: AccountCommandRequest): Promise<AccountCommandResult> =>
  transact(pool, (tx) => runAccountCommandInTransaction(tx, req));
