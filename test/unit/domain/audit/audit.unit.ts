import t from 'tap';
import type { AuditEvent } from '../../../../events/audit/events.ts';
import { auditDecider, type AuditCommand } from '../../../../services/domain/audit/decider.ts';
import { fold } from '../../../../core/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';

const s = spec(auditDecider);
const request: AuditEvent & { type: 'AuditRequested' } = {
  type: 'AuditRequested',
  data: {
    auditId: 'aud_1',
    jobId: 'job_1',
    source: 'api',
    url: 'https://example.com/a',
    contentRef: null,
    title: null,
    keyword: 'rower miejski',
    language: null,
    project: 'Blog',
    share: false,
    shareExpiresInDays: null,
    webhookUrl: null,
    bulkId: null,
    idempotencyKey: null,
  },
};
const started: AuditEvent = { type: 'AuditStarted', data: { attempt: 1 } };
const content: AuditEvent = {
  type: 'ContentFetched',
  data: { contentRef: 'abc', format: 'html', finalUrl: 'https://example.com/a', chars: 1200 },
};
const csi: AuditEvent = {
  type: 'CsiDerived',
  data: {
    keyword: 'rower miejski',
    language: 'pl',
    centralEntity: 'rower miejski',
    sourceContext: 'shop',
    centralSearchIntent: 'choose',
    predicate: 'wybrać',
  },
};
const chargedE: AuditEvent = { type: 'AuditCharged', data: { chargeId: 'chg_audit_aud_1', credits: 1 } };
const completed: AuditEvent = { type: 'AuditCompleted', data: { cqs: 71, resultJson: '{}', benchmarkRef: null } };
const failed = (errorCode: 'crawl_failed' | 'audit_failed', stage: 'fetch' | 'score'): AuditEvent => ({
  type: 'AuditFailed',
  data: { errorCode, errorMessage: 'x', stage },
});
const cmd = (type: AuditCommand['type'], data: unknown) => ({ type, data }) as AuditCommand;

t.test('when nothing was requested', async (t) => {
  t.test('a request is recorded', s.given([]).when(cmd('RequestAudit', request.data)).then([request]));
  t.test('supplied content is started and recorded with its request: nothing to fetch', async (t) => {
    const text = { ...request.data, url: null, contentRef: 'c0ffee', title: 'rower miejski' };
    await s
      .given([])
      .when(cmd('RequestAudit', { ...text, suppliedChars: 900 }))
      .then([
        { type: 'AuditRequested', data: text },
        started,
        { type: 'ContentFetched', data: { contentRef: 'c0ffee', format: 'text', finalUrl: null, chars: 900 } },
      ])(t);
    const state = fold(
      auditDecider,
      auditDecider.decide(cmd('RequestAudit', { ...text, suppliedChars: 900 }), fold(auditDecider, [])),
    );
    t.equal(state.status, 'running', 'the audit is running, its content at hand: the analysis is next');
  });
  t.test(
    'supplied content without its length is a bug',
    s
      .given([])
      .when(cmd('RequestAudit', { ...request.data, url: null, contentRef: 'c0ffee' }))
      .thenThrows('internal_error'),
  );
  t.test(
    'any step is refused as not found',
    s
      .given([])
      .when(cmd('StartAudit', { attempt: 1 }))
      .thenThrows('not_found'),
  );
});

t.test('when queued', async (t) => {
  t.test(
    'the same request again (Idempotency-Key) adds nothing',
    s.given([request]).when(cmd('RequestAudit', request.data)).then([]),
  );
  t.test(
    'a worker starts it',
    s
      .given([request])
      .when(cmd('StartAudit', { attempt: 1 }))
      .then([started]),
  );
  t.test(
    'it can fail before starting',
    s
      .given([request])
      .when(cmd('FailAudit', failed('crawl_failed', 'fetch').data))
      .then([failed('crawl_failed', 'fetch')]),
  );
  t.test(
    'content before running is a bug',
    s.given([request]).when(cmd('RecordContent', content.data)).thenThrows('internal_error'),
  );
});

t.test('when running', async (t) => {
  t.test(
    'a repeated start of the same attempt is a no-op',
    s
      .given([request, started])
      .when(cmd('StartAudit', { attempt: 1 }))
      .then([]),
  );
  t.test(
    'a retry records its attempt',
    s
      .given([request, started])
      .when(cmd('StartAudit', { attempt: 2 }))
      .then([{ type: 'AuditStarted', data: { attempt: 2 } }]),
  );
  t.test(
    'content is recorded once',
    s.given([request, started]).when(cmd('RecordContent', content.data)).then([content]),
  );
  t.test(
    'content again is a no-op',
    s.given([request, started, content]).when(cmd('RecordContent', content.data)).then([]),
  );
  t.test(
    'no charge before the CSI (spec 3.1)',
    s
      .given([request, started, content])
      .when(cmd('RecordCharge', { chargeId: 'c', credits: 1 }))
      .thenThrows('internal_error', /after content and CSI/),
  );
  t.test(
    'charge after the CSI',
    s.given([request, started, content, csi]).when(cmd('RecordCharge', chargedE.data)).then([chargedE]),
  );
  t.test(
    'a second charge record is a no-op',
    s.given([request, started, content, csi, chargedE]).when(cmd('RecordCharge', chargedE.data)).then([]),
  );
  t.test(
    'no completion before the charge',
    s.given([request, started, content, csi]).when(cmd('CompleteAudit', completed.data)).thenThrows('internal_error'),
  );
  t.test(
    'completion after the charge',
    s.given([request, started, content, csi, chargedE]).when(cmd('CompleteAudit', completed.data)).then([completed]),
  );
  t.test(
    'a completion without benchmarkRef keeps none',
    s
      .given([request, started, content, csi, chargedE])
      .when(cmd('CompleteAudit', { cqs: 71, resultJson: '{}' }))
      .then([completed]),
  );
  t.test('the SERP baseline is kept with the completion', async (t) => {
    const withBaseline: AuditEvent = {
      type: 'AuditCompleted',
      data: { cqs: 71, resultJson: '{}', benchmarkRef: 'f00d' },
    };
    await s
      .given([request, started, content, csi, chargedE])
      .when(cmd('CompleteAudit', withBaseline.data))
      .then([withBaseline])(t);
    const done = fold(auditDecider, [request, started, content, csi, chargedE, withBaseline]);
    t.equal(done.status === 'completed' ? done.benchmarkRef : undefined, 'f00d', 'the state names the kept baseline');
  });
});

t.test('when finished', async (t) => {
  const done = [request, started, content, csi, chargedE, completed];
  t.test(
    'a late failure is a no-op',
    s
      .given(done)
      .when(cmd('FailAudit', failed('audit_failed', 'score').data))
      .then([]),
  );
  t.test('a late completion is a no-op', s.given(done).when(cmd('CompleteAudit', completed.data)).then([]));
  t.test(
    'a failed audit stays failed',
    s
      .given([request, started, failed('crawl_failed', 'fetch')])
      .when(cmd('CompleteAudit', completed.data))
      .then([]),
  );
  t.test(
    'its project can still be reassigned',
    s
      .given(done)
      .when(cmd('AssignProject', { project: 'Other', actor: 'admin' }))
      .then([{ type: 'AuditProjectAssigned', data: { project: 'Other', actor: 'admin' } }]),
  );
  t.test(
    'assigning the same project is a no-op',
    s
      .given(done)
      .when(cmd('AssignProject', { project: 'Blog', actor: 'admin' }))
      .then([]),
  );
  t.test(
    'unassigning',
    s
      .given(done)
      .when(cmd('AssignProject', { project: null, actor: 'admin' }))
      .then([{ type: 'AuditProjectAssigned', data: { project: null, actor: 'admin' } }]),
  );
});
