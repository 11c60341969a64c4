import type { Test } from 'tap';
import { accountStreamId } from '../../../events/account/index.ts';
import { auditStreamId } from '../../../events/audit/events.ts';
import type { Config } from '../../../infra/config.ts';
import { contentRefOf } from '../../../infra/eventStore/contentStore.ts';
import { decideInTransaction, loadStream, transact } from '../../../infra/eventStore/eventStore.ts';
import { createLogger } from '../../../infra/logger.ts';
import type { Pool, PoolClient } from '../../../infra/postgres/pool.ts';
import { startApplyRole } from '../../../services/apply/role.ts';
import { accountDecider, balanceOf } from '../../../services/domain/account/decider.ts';
import { auditDecider, type AuditCommand } from '../../../services/domain/audit/decider.ts';
import { auditContent } from '../../../services/engine/audit.ts';
import { byId, read } from '../../fixtures/engine/corpus.ts';
import { checkStream } from '../ledger/fixtures/ledgerChecks.ts';
import { seedAudit } from '../api/audits/fixtures/auditApi.ts';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';

const step = (tx: PoolClient, accountId: string, auditId: string, command: AuditCommand) =>
  decideInTransaction(tx, {
    now: new Date(),
    decider: auditDecider,
    streamId: auditStreamId(auditId),
    accountId,
    command,
  });

/**
 * A completed audit of supplied text (a weak corpus article): submitted through the real command,
 * then the pipeline's events with the engine's real result on that very content.
 */
export async function completedTextAudit(
  pool: Pool,
  accountId: string,
  articleId = 'en-howto-descale',
  benchmark?: SerpBenchmarkInput,
): Promise<{ auditId: string; jobId: string }> {
  const a = byId(articleId);
  const content = read('weak', a);
  const submitted = await seedAudit(pool, {
    accountId,
    now: new Date(),
    request: { content, keyword: a.keyword, language: a.language },
  });
  const result = auditContent({ content, url: null, keyword: a.keyword, language: a.language, benchmark });
  await transact(pool, async (tx) => {
    await step(tx, accountId, submitted.auditId, { type: 'StartAudit', data: { attempt: 1 } });
    await step(tx, accountId, submitted.auditId, {
      type: 'RecordContent',
      data: { contentRef: contentRefOf(content), format: 'text', finalUrl: null, chars: content.length },
    });
    await step(tx, accountId, submitted.auditId, {
      type: 'RecordCsi',
      data: { keyword: result.input.keyword!, language: result.input.language!, ...result.csi },
    });
    const { events } = await decideInTransaction(tx, {
      now: new Date(),
      decider: accountDecider,
      streamId: accountStreamId(accountId),
      accountId,
      command: {
        type: 'ChargeCredit',
        data: { kind: 'audit', subjectId: submitted.auditId, jobId: submitted.jobId, url: null, project: null },
      },
    });
    const chargeId = (events[0]?.payload as { chargeId?: string } | undefined)?.chargeId ?? null;
    await step(tx, accountId, submitted.auditId, {
      type: 'RecordCharge',
      data: { chargeId, credits: chargeId ? 1 : 0 },
    });
    await step(tx, accountId, submitted.auditId, {
      type: 'CompleteAudit',
      data: { cqs: result.scores.cqs, resultJson: JSON.stringify(result) },
    });
  });
  return { auditId: submitted.auditId, jobId: submitted.jobId! };
}

/** The apply role in this process. */
export function applyRole(t: Test, pool: Pool, applyLlm: Config['applyLlm'] = null): void {
  const config = {
    roles: ['apply'],
    pipeline: { leaseSeconds: 5, maxAttempts: 3, auditorConcurrency: 2 },
    applyLlm,
  } as unknown as Config;
  const stops = startApplyRole(config, pool, createLogger('test-apply', 'silent'));
  t.teardown(() => Promise.all(stops.map((s) => s())));
}

/** The ledger is true: the walk of the stream (no double charge, never below zero) equals the decider's balance. */
export async function ledgerTrue(t: Test, pool: Pool, accountId: string): Promise<number> {
  const { balance } = await checkStream(t, pool, accountId);
  const { state } = await loadStream(pool, accountDecider, accountStreamId(accountId));
  t.equal(balanceOf(state), balance, 'sum of the credit events = balance');
  return balance;
}
