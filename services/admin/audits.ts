import { auditStreamId } from '../../events/audit/events.ts';
import type { AcceptancePolicy } from '../../infra/http/validateUrl.ts';
import { handleCommand } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { accountOfAudit } from '../../projections/audits/queries.ts';
import { parseAuditSubmission, projectName } from '../pipeline/parseSubmission.ts';
import { submitAudit } from '../pipeline/submitAudit.ts';
import { auditDecider } from '../domain/audit/decider.ts';
import { AppError } from '../../core/errors.ts';

/**
 * Audits created "in the app" (spec 2.2, 4.9 source=panel) and project reassignment, which the spec
 * leaves to the app: the operator CLI does them, so app audits and reassignment are real.
 */

export interface CreatePanelAuditInput {
  accountId: string;
  url?: string;
  content?: string;
  keyword?: string;
  project?: string;
  now?: Date;
}

export interface CreatedPanelAudit {
  auditId: string;
  jobId: null;
  source: 'panel';
  status: 'queued';
  project: string | null;
  createdAt: string;
}

/**
 * An app audit: the same rules as POST /audits (the same parser), the same submission command and
 * admission (402 without credits, 429 with three in flight), but source 'panel': no job id, no
 * Idempotency-Key, no webhook (spec 4.9).
 */
export async function createPanelAudit(
  pool: Pool,
  policy: AcceptancePolicy,
  input: CreatePanelAuditInput,
): Promise<CreatedPanelAudit> {
  const request = parseAuditSubmission(
    { url: input.url, content: input.content, keyword: input.keyword, project: input.project },
    policy,
  );
  const submitted = await submitAudit(pool, {
    accountId: input.accountId,
    source: 'panel',
    request,
    idempotencyKey: null,
    bulkId: null,
    now: input.now ?? new Date(),
    correlationId: null,
  });
  return {
    auditId: submitted.auditId,
    jobId: null,
    source: 'panel',
    status: 'queued',
    project: submitted.project,
    createdAt: submitted.createdAt,
  };
}

/**
 * Moves an audit (API or app) to another project, or to none: `AssignProject` on its stream. The
 * audits read model follows through its subscription (the projections role), like every other
 * audit event after the request.
 */
export async function assignProject(
  pool: Pool,
  input: { auditId: string; project: string | null; actor?: string; now?: Date },
): Promise<{ auditId: string; accountId: string; project: string | null; changed: boolean }> {
  const project = input.project === null ? null : projectName(input.project);
  const accountId = await accountOfAudit(pool, input.auditId);
  if (!accountId) throw new AppError('not_found', `Audit ${input.auditId} not found`);
  const { events } = await handleCommand(pool, {
    decider: auditDecider,
    streamId: auditStreamId(input.auditId),
    accountId,
    now: input.now ?? new Date(),
    command: { type: 'AssignProject', data: { project, actor: input.actor ?? 'admin' } },
  });
  return { auditId: input.auditId, accountId, project, changed: events.length > 0 };
}
