// Registers the event definitions the append checks payloads against (CLI and tests import only this).
import '../../events/catalogue.ts';
import { accountStreamId, type AccountEvent } from '../../events/account/index.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import { appendToStream, decideInTransaction, loadStream, transact, type EventMeta } from '../../infra/eventStore/eventStore.ts';
import type { Pool, PoolClient } from '../../infra/postgres/pool.ts';
import { accountDecider, type AccountCommand, type AccountState } from '../../services/domain/account/decider.ts';
import { accountsProjection } from './projection.ts';

export interface AccountCommandRequest extends EventMeta {
  accountId: string;
  command: AccountCommand;
}

export interface AccountCommandResult {
  events: EventEnvelope[];
  state: AccountState;
}

/**
 * Decides an account command and folds its events into the inline accounts projection in the
 * same transaction (the append first: log order follows the first write). Every writer of account
 * and key events goes through here, so authentication never sees a key the log does not, or misses
 * a revocation it does.
 */
export async function decideAccountInTransaction(tx: PoolClient, req: AccountCommandRequest): Promise<AccountCommandResult> {
  const result = await decideInTransaction<AccountCommand, AccountState>(tx, {
    decider: accountDecider,
    streamId: accountStreamId(req.accountId),
    accountId: req.accountId,
    command: req.command,
    now: req.now,
    causationId: req.causationId ?? null,
    correlationId: req.correlationId ?? null,
  });
  const inline = result.events.filter((e) => accountsProjection.canHandle.includes(e.type));
  if (inline.length) await accountsProjection.handle(inline, tx);
  return result;
}

/**
 * Several commands on one account, decided one after the other on the evolving state and appended
 * together (one append: the stream is written once per transaction), e.g. opening an account with
 * its first key and starting credits. Any refusal refuses them all.
 */
export async function decideAccountCommandsInTransaction(
  tx: PoolClient,
  req: EventMeta & { accountId: string; commands: AccountCommand[] },
): Promise<AccountCommandResult> {
  const streamId = accountStreamId(req.accountId);
  const loaded = await loadStream<AccountState>(tx, accountDecider, streamId);
  let state = loaded.state;
  const decided: AccountEvent[] = [];
  for (const command of req.commands) {
    const events = accountDecider.decide(command, state);
    state = events.reduce(accountDecider.evolve, state);
    decided.push(...events);
  }
  const events = await appendToStream(tx, {
    streamId,
    accountId: req.accountId,
    expectedVersion: loaded.version,
    events: decided,
    now: req.now,
    causationId: req.causationId ?? null,
    correlationId: req.correlationId ?? null,
  });
  const inline = events.filter((e) => accountsProjection.canHandle.includes(e.type));
  if (inline.length) await accountsProjection.handle(inline, tx);
  return { events, state };
}

/** The same in a transaction of its own, decided again on a concurrency conflict. */
export const handleAccountCommand = (pool: Pool, req: AccountCommandRequest): Promise<AccountCommandResult> =>
  transact(pool, (tx) => decideAccountInTransaction(tx, req));

export type { AccountEvent };
