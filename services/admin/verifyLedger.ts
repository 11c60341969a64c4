import { accountStreamId, type AccountEvent } from '../../events/account/index.ts';
import { creditMovementTypes } from '../../events/catalogue.ts';
import { checkChain, type ChainProblem } from '../../infra/eventStore/hashChain.ts';
import { loadWholeStream } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { allLedgerEntries, ledgerBalance } from '../../projections/ledger/queries.ts';
import { accountDecider, balanceOf, historyOf, usedOf } from '../domain/account/decider.ts';
import { AppError } from '../../core/errors.ts';
import { sleep } from '../../core/sleep.ts';

export interface LedgerReport {
  accountId: string;
  /** Credit events in the account's stream. */
  events: number;
  /** The balance folded from the log by the account decider: the truth. */
  balance: number;
  /** The ledger read model's `remaining`. */
  projected: number;
  ok: boolean;
  used: number;
  projectedUsed: number;
  /** Sum of the read model's history deltas (must equal `projected`). */
  historySum: number;
  /** The hash chain of the credit movements, checked from the store's rows alone. */
  chain: { chained: number; unchained: number; breaks: ChainProblem[] };
  /** Empty when ok; otherwise what differs. */
  problems: string[];
}

/**
 * Checks the hash chain of the account's credit movements (a changed, inserted, removed or moved
 * event is named by its stream version and log position), then folds the account's credit events from the log and compares them with the ledger projection:
 * balance, used, and every history entry (historyOf on the log against the table). Waits up to
 * `waitMs` for the projection to reach the stream's last event, since it follows the log
 * asynchronously; if it has not by then, that is reported as a problem.
 */
export async function verifyLedger(pool: Pool, accountId: string, waitMs = 10_000): Promise<LedgerReport> {
  // The log itself, every event folded: not the decider's snapshot, which is only a cache of this.
  const { state, events, version } = await loadWholeStream(pool, accountDecider, accountStreamId(accountId));
  if (state.status !== 'Open') throw new AppError('not_found', `account ${accountId} not found`);
  const until = Date.now() + waitMs;
  while ((await ledgerBalance(pool, accountId)).streamVersion < version && Date.now() < until) {
    await sleep(100);
  }
  const projection = await allLedgerEntries(pool, accountId);
  const expected = historyOf(
    events.map((e) => ({ event: { type: e.type, data: e.payload } as AccountEvent, occurredAt: e.occurredAt })),
  );
  const balance = balanceOf(state);
  const used = usedOf(state);
  const historySum = projection.history.reduce((sum, h) => sum + h.delta, 0);

  const chain = await checkChain(pool, accountStreamId(accountId));
  const problems: string[] = chain.problems.map((p) => p.message);
  if (projection.streamVersion < version) {
    problems.push(
      `the ledger projection is at stream version ${projection.streamVersion}, the log at ${version} (is the projections role running?)`,
    );
  }
  if (projection.remaining !== balance)
    problems.push(`projected remaining ${projection.remaining} != log balance ${balance}`);
  if (projection.used !== used) problems.push(`projected used ${projection.used} != log used ${used}`);
  if (historySum !== projection.remaining)
    problems.push(`sum of history deltas ${historySum} != projected remaining ${projection.remaining}`);
  if (JSON.stringify(projection.history) !== JSON.stringify(expected)) {
    const at = expected.findIndex((h, i) => JSON.stringify(h) !== JSON.stringify(projection.history[i]));
    problems.push(
      `history differs from the log's (${projection.history.length} entries projected, ${expected.length} in the log; first difference at index ${at < 0 ? expected.length : at})`,
    );
  }
  return {
    accountId,
    events: events.filter((e) => creditMovementTypes.includes(e.type)).length,
    balance,
    projected: projection.remaining,
    ok: problems.length === 0,
    used,
    projectedUsed: projection.used,
    historySum,
    chain: { chained: chain.chained, unchained: chain.unchained, breaks: chain.problems },
    problems,
  };
}
