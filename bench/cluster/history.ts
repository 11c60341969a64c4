import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { sleep } from '../../core/sleep.ts';
import { accountStreamId, type AccountEvent } from '../../events/account/index.ts';
import { loadWholeStream } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { ledgerBalance } from '../../projections/ledger/queries.ts';
import { verifyLedger } from '../../services/admin/verifyLedger.ts';
import { accountDecider, balanceOf, historyOf } from '../../services/domain/account/decider.ts';
import { afterDedup, type History, type TopicRecord } from './checker.ts';
import { storedRecords, topicRecords, type RawMessage } from './logRecords.ts';

/** The store's side of the history: jobs, charges and refunds, every account's ledger. */
export async function storeHistory(
  pool: Pool,
  accountIds: string[],
): Promise<Pick<History, 'accepted' | 'terminal' | 'generations' | 'charges' | 'refunds' | 'ledgers' | 'stored'>> {
  // Jobs by the id the API answered with (AuditRequested.jobId), as the client knows them.
  const jobs = async (terminalOnly: boolean) =>
    (
      await pool.query<{ id: string }>(
        `SELECT DISTINCT r.payload->>'jobId' AS id FROM events r
          WHERE r.type = 'AuditRequested' AND r.account_id = ANY($1) AND r.payload->>'jobId' IS NOT NULL
            AND (NOT $2 OR EXISTS (SELECT 1 FROM events t
                  WHERE t.stream_id = r.stream_id AND t.type IN ('AuditCompleted', 'AuditFailed')))`,
        [accountIds, terminalOnly],
      )
    ).rows.map((r) => r.id);
  const charges = (
    await pool.query<{ charge: string; subject: string }>(
      `SELECT payload->>'chargeId' AS charge, payload->>'subjectId' AS subject FROM events WHERE type = 'CreditCharged'`,
    )
  ).rows;
  const subjectOf = new Map(charges.map((c) => [c.charge, c.subject]));
  const refunds = (
    await pool.query<{ charge: string }>(
      `SELECT payload->>'chargeId' AS charge FROM events WHERE type = 'CreditRefunded'`,
    )
  ).rows.map((r) => subjectOf.get(r.charge) ?? `unknown charge ${r.charge}`);
  const ledgers = [];
  for (const accountId of accountIds) ledgers.push(await ledgerOf(pool, accountId));
  return {
    accepted: await jobs(false),
    terminal: await jobs(true),
    generations: {
      accepted: await revisions(pool, accountIds, 'RevisionRequested'),
      completed: await revisions(pool, accountIds, 'RevisionGenerated'),
      failed: await revisions(pool, accountIds, 'RevisionFailed'),
    },
    charges: charges.map((c) => c.subject),
    refunds,
    ledgers,
    stored: await storedRecords(pool),
  };
}

/** Tasks claimed more than once, by kind: taken over after a lost lease (or retried after an error). */
export const reclaimedTasks = async (pool: Pool): Promise<Record<string, number>> =>
  Object.fromEntries(
    (
      await pool.query<{ kind: string; n: number }>(
        `SELECT kind, count(*)::int AS n FROM pipeline_tasks WHERE attempts > 1 GROUP BY kind ORDER BY kind`,
      )
    ).rows.map((r) => [r.kind, r.n]),
  );

/** The revision ids (apply generations) of these accounts that have an event of this type. */
const revisions = async (pool: Pool, accountIds: string[], type: string): Promise<string[]> =>
  (
    await pool.query<{ id: string }>(
      `SELECT DISTINCT payload->>'revisionId' AS id FROM events WHERE type = $1 AND account_id = ANY($2)`,
      [type, accountIds],
    )
  ).rows.map((r) => r.id);

/** Replay (sum of the stream's credit deltas) against the projection, and `ledger verify`. */
async function ledgerOf(pool: Pool, accountId: string): Promise<History['ledgers'][number]> {
  const { state, events, version } = await loadWholeStream(pool, accountDecider, accountStreamId(accountId));
  const replay = historyOf(
    events.map((e) => ({ event: { type: e.type, data: e.payload } as AccountEvent, occurredAt: e.occurredAt })),
  ).reduce((s, h) => s + h.delta, 0);
  const projected = await ledgerBalance(pool, accountId);
  const verified = await verifyLedger(pool, accountId, 100_000);
  return {
    accountId,
    replay,
    projected: projected.remaining,
    verifyOk: verified.ok && replay === balanceOf(state) && projected.streamVersion === version,
  };
}

/**
 * The whole events topic, read from the beginning by a consumer of its own, until what it has
 * read covers the store (after de-duplication) or `timeoutMs` passes.
 */
export async function readWholeTopic(
  brokers: string[],
  topic: string,
  storedCount: number,
  timeoutMs = 120_000,
): Promise<TopicRecord[]> {
  const kafka = new Kafka({ clientId: 'soak-checker', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `soak-checker-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 200 });
  const messages: RawMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
      messages.push({ partition, headers, value: message.value! });
    },
  });
  let records: TopicRecord[] = [];
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(1000)) {
    records = await topicRecords(messages);
    if (afterDedup(records).applied.length >= storedCount) break;
  }
  await consumer.disconnect();
  // kafkajs hands each partition's messages in offset order, partitions interleaved: regroup.
  return records
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.partition - b.r.partition || a.i - b.i)
    .map(({ r }) => r);
}
