import t from 'tap';
import type { RevisionEvent } from '../../../../events/revision/events.ts';
import type { AccountEvent } from '../../../../events/account/index.ts';
import type { ApplyAdmissionEvent } from '../../../../events/account/applyAdmission.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import { fold } from '../../../../core/decider.ts';
import { planRequest, revisionDecider, selectionKeyOf } from '../../../../services/domain/revision/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import { opened, purchased } from '../account/fixtures/account.ts';

const A = 'aud_1';
const key = selectionKeyOf(['rec:1', 'meta:title']);
const s = spec(revisionDecider);
const idFor = (events: RevisionEvent[], force = false) => {
  const p = planRequest(fold(revisionDecider, events), A, key, force);
  return p.kind === 'new' ? p.revisionId : p.revision.revisionId;
};
const request = (revisionId: string, force = false) => ({
  type: 'RequestRevision' as const,
  data: { revisionId, auditId: A, jobId: 'job_1', selectedIds: ['meta:title', 'rec:1'], selectionKey: key, force },
});
const requested = (revisionId: string, force = false): RevisionEvent => ({
  type: 'RevisionRequested',
  data: { ...request(revisionId, force).data, selectedIds: ['meta:title', 'rec:1'] },
});
const generated = (revisionId: string): RevisionEvent => ({
  type: 'RevisionGenerated',
  data: { revisionId, resultRef: 'r', appliedCount: 1, cqsBefore: 40 },
});
const failed = (revisionId: string): RevisionEvent => ({
  type: 'RevisionFailed',
  data: { revisionId, error: 'nothing applied' },
});

t.test('the selection is a set', async (t) => {
  t.equal(selectionKeyOf(['b', 'a', 'b']), selectionKeyOf(['a', 'b']));
});

t.test('when the audit has no revision', async (t) => {
  const id = idFor([]);
  t.test(
    'a new selection is requested',
    s
      .given([])
      .when(request(id))
      .then([requested(id)]),
  );
  t.test(
    'an empty selection is refused',
    s
      .given([])
      .when({ ...request(id), data: { ...request(id).data, selectedIds: [] } })
      .thenThrows('invalid_request'),
  );
  t.test(
    'a stale revision id is a conflict (decide again)',
    s.given([]).when(request('rev_other')).thenThrows('concurrency_conflict'),
  );
});

t.test('when the same selection is generating', async (t) => {
  const id = idFor([]);
  t.test(
    'asking again appends nothing (no second charge)',
    s
      .given([requested(id)])
      .when(request(id))
      .then([]),
  );
  t.test(
    'force does not start a second one while it runs',
    s
      .given([requested(id)])
      .when(request(id, true))
      .then([]),
  );
  t.equal(planRequest(fold(revisionDecider, [requested(id)]), A, key, false).kind, 'inFlight');
});

t.test('when the same selection finished', async (t) => {
  const id = idFor([]);
  const given = [requested(id), generated(id)];
  t.equal(planRequest(fold(revisionDecider, given), A, key, false).kind, 'cached', 'fromCache');
  const forced = idFor(given, true);
  t.not(forced, id, 'force names a new revision');
  t.test(
    'force requests a new revision',
    s
      .given(given)
      .when(request(forced, true))
      .then([requested(forced, true)]),
  );
  t.test(
    'a generation cannot complete twice',
    s
      .given(given)
      .when({ type: 'CompleteGeneration', data: { revisionId: id, resultRef: 'x', appliedCount: 1, cqsBefore: null } })
      .then([]),
  );
  t.test(
    'a completed revision is not refunded',
    s
      .given(given)
      .when({ type: 'RecordRefund', data: { revisionId: id, credits: 1 } })
      .thenThrows('invalid_request'),
  );
});

t.test('when the same selection failed', async (t) => {
  const id = idFor([]);
  const given = [requested(id), failed(id)];
  t.equal(
    planRequest(fold(revisionDecider, given), A, key, false).kind,
    'new',
    'a failed selection may be asked again',
  );
  t.test(
    'its refund is recorded once',
    s
      .given(given)
      .when({ type: 'RecordRefund', data: { revisionId: id, credits: 1 } })
      .then([{ type: 'RevisionRefunded', data: { revisionId: id, credits: 1 } }]),
  );
  t.test(
    'twice: nothing',
    s
      .given([...given, { type: 'RevisionRefunded', data: { revisionId: id, credits: 1 } }])
      .when({ type: 'RecordRefund', data: { revisionId: id, credits: 1 } })
      .then([]),
  );
});

t.test('apply admission: three generations at a time, apart from audits; 402 without a credit', async (t) => {
  type E = AccountEvent | ApplyAdmissionEvent | { type: 'AuditAdmitted'; data: { auditId: string } };
  const a = spec(accountDecider);
  const adm = (revisionId: string): E => ({ type: 'ApplyAdmitted', data: { revisionId } });
  const admit = (revisionId: string) => ({ type: 'AdmitGeneration' as const, data: { revisionId } });
  const rich: E[] = [opened(), purchased(10)];
  const auditAdmitted = (auditId: string): E => ({ type: 'AuditAdmitted', data: { auditId } });
  t.test(
    'admitted',
    a
      .given(rich)
      .when(admit('r1'))
      .then([adm('r1')]),
  );
  t.test(
    'the fourth is 429',
    a
      .given([...rich, adm('r1'), adm('r2'), adm('r3')])
      .when(admit('r4'))
      .thenThrows('rate_limited', /At most 3 apply generations/),
  );
  t.test(
    'audits in flight do not count',
    a
      .given([...rich, auditAdmitted('a1'), auditAdmitted('a2'), auditAdmitted('a3'), adm('r1'), adm('r2')])
      .when(admit('r3'))
      .then([adm('r3')]),
  );
  t.test(
    'released frees a place',
    a
      .given([...rich, adm('r1'), adm('r2'), adm('r3'), { type: 'ApplyReleased', data: { revisionId: 'r1' } }])
      .when(admit('r4'))
      .then([adm('r4')]),
  );
  t.test('402 without a credit', a.given([opened()]).when(admit('r1')).thenThrows('insufficient_credits'));
});
