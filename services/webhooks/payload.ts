import { API_VERSION } from '../../core/apiVersion.ts';
import type { AuditEvent, AuditRequested } from '../../events/audit/events.ts';
import { type EventEnvelope, domainEventOf } from '../../events/envelope.ts';
import type { WebhookEventName, WebhookScheduled } from '../../events/webhook/events.ts';

/** The job object of a webhook body (spec 6). */
export interface WebhookJob {
  id: string;
  status: 'completed' | 'error';
  auditId: string;
  bulkId: string | null;
  project: string | null;
  input: { url: string | null; keyword: string | null; language: string | null };
  creditsCharged: number;
  errorCode: string | null;
  createdAt: string;
  completedAt: string;
}

/**
 * The webhook a finished audit owes, from its own stream up to its terminal event (later events,
 * such as a project reassigned afterwards, are not part of this outcome). Null when none is owed:
 * no webhookUrl, no job id (audits created in the app have no webhooks), or not finished.
 * The keyword and language are the ones the audit ran on once known (CsiDerived), else as asked.
 */
export function webhookOf(stream: readonly EventEnvelope[]): WebhookScheduled['data'] | null {
  let request: AuditRequested['data'] | null = null;
  let createdAt = '';
  let project: string | null = null;
  let keyword: string | null = null;
  let language: string | null = null;
  let creditsCharged = 0;
  for (const envelope of stream) {
    const e = domainEventOf<AuditEvent>(envelope);
    switch (e.type) {
      case 'AuditRequested':
        request = e.data;
        createdAt = envelope.occurredAt;
        project = e.data.project;
        keyword = e.data.keyword;
        language = e.data.language;
        break;
      case 'CsiDerived':
        keyword = e.data.keyword;
        language = e.data.language;
        break;
      case 'AuditCharged':
        creditsCharged += e.data.credits;
        break;
      case 'AuditProjectAssigned':
        project = e.data.project;
        break;
      case 'AuditCompleted':
      case 'AuditFailed': {
        if (!request || !request.jobId || !request.webhookUrl) return null;
        const failed = e.type === 'AuditFailed';
        const event: WebhookEventName = failed ? 'audit.failed' : 'audit.completed';
        const job: WebhookJob = {
          id: request.jobId,
          status: failed ? 'error' : 'completed',
          auditId: request.auditId,
          bulkId: request.bulkId,
          project,
          input: { url: request.url, keyword, language },
          creditsCharged,
          errorCode: failed ? e.data.errorCode : null,
          createdAt,
          completedAt: envelope.occurredAt,
        };
        return {
          jobId: request.jobId,
          auditId: request.auditId,
          event,
          url: request.webhookUrl,
          body: JSON.stringify({ event, job, apiVersion: API_VERSION }),
        };
      }
      default:
        break;
    }
  }
  return null;
}
