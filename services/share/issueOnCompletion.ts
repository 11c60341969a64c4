import type { EventEnvelope } from '../../events/envelope.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { AuditState } from '../domain/audit/state.ts';
import { shareLangOf, tokenHashesOf } from './links.ts';
import { runShareCommand } from './shareCommand.ts';

/**
 * `share: true` on submission (spec 4.2, 3.3 row 1): the link is issued in the transaction that
 * completes the audit, so no reader ever sees the audit completed without the link it asked for.
 * The clock starts at that moment: the audit's completedAt.
 */
export async function issueShareOnCompletion(
  tx: PoolClient,
  audit: {
    accountId: string;
    auditId: string;
    state: AuditState;
    completed: EventEnvelope | undefined;
    dayMs: number;
    causationId: string;
  },
): Promise<void> {
  const { state } = audit;
  if (state.status === 'None' || !state.request.share || !audit.completed) return;
  const request = state.request;
  const now = new Date(audit.completed.occurredAt);
  await runShareCommand(tx, {
    accountId: audit.accountId,
    auditId: audit.auditId,
    now,
    causationId: audit.causationId,
    correlationId: audit.auditId,
    command: {
      type: 'IssueOnCompletion',
      data: {
        auditId: audit.auditId,
        now,
        dayMs: audit.dayMs,
        tokenHashFor: tokenHashesOf(audit.auditId),
        lang: shareLangOf(state.language),
        expiresInDays: request.shareExpiresInDays,
      },
    },
  });
}
