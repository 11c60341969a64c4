/**
 * Seeds a large ledger fast for the auditor-tools bench: random account histories decided by the
 * account decider (test/helpers/randomLedger.ts), with the hash chain computed here exactly as the
 * event store computes it at append (hashChain.ts's eventHash over the stored payload), written with
 * one multi-row INSERT per batch of accounts (unnest of column arrays: no parameter limit). It
 * skips only the append path's per-event checks (schema, expected version), which the bench does
 * not measure; `ledger verify` over the result shows the chain it wrote is the real one.
 */
import { accountStreamId } from '../events/account/index.ts';
import { randomId } from '../core/ids.ts';
import { eventDefinition } from '../events/registry.ts';
import { eventHash, isChained } from '../infra/eventStore/hashChain.ts';
import { EVENT_ROWS } from '../infra/eventStore/eventStore.ts';
import { partitionOf } from '../infra/eventStore/schema.ts';
import { withTransaction, type Pool } from '../infra/postgres/pool.ts';
import { storableJson } from '../infra/postgres/storableText.ts';
import { randomAccountEvents, seededRandom } from '../test/helpers/randomLedger.ts';

/** Appends random accounts until at least `events` events are stored; returns the account ids. */
export async function seedLedger(
  pool: Pool,
  o: { events: number; steps: number; seed: number; batchEvents?: number },
): Promise<string[]> {
  const random = seededRandom(o.seed);
  const ids: string[] = [];
  let total = 0;
  const start = Date.parse('2026-01-01T00:00:00Z');
  while (total < o.events) {
    const rows: unknown[][] = [];
    let inBatch = 0;
    while (inBatch < (o.batchEvents ?? 20_000) && total + inBatch < o.events) {
      const accountId = `usr_bench${o.seed}_${ids.length}`;
      ids.push(accountId);
      const streamId = accountStreamId(accountId);
      const partition = partitionOf(accountId);
      let head: string | null = null;
      randomAccountEvents(accountId, o.steps, random).forEach((e, i) => {
        const version = eventDefinition(e.type).latest;
        const occurredAt = new Date(start + (total + inBatch) * 1000).toISOString();
        const payload = storableJson(e.data);
        const id = randomId();
        let prevHash: string | null = null;
        if (isChained(e.type)) {
          prevHash = head;
          head = eventHash({
            id,
            type: e.type,
            version,
            accountId,
            streamId,
            streamVersion: i + 1,
            occurredAt,
            payload: JSON.parse(payload) as unknown,
            prevHash,
          });
        }
        rows.push([
          id,
          streamId,
          i + 1,
          accountId,
          partition,
          e.type,
          version,
          occurredAt,
          null,
          null,
          payload,
          prevHash,
        ]);
        inBatch++;
      });
    }
    await withTransaction(pool, (tx) =>
      tx.query(`INSERT INTO events (${EVENT_ROWS.names}) SELECT * FROM ${EVENT_ROWS.unnest}`, EVENT_ROWS.values(rows)),
    );
    total += inBatch;
  }
  return ids;
}
