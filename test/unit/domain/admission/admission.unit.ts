import t from 'tap';
import type { AdmissionEvent } from '../../../../events/account/admission.ts';
import type { AccountEvent } from '../../../../events/account/index.ts';
import { admissionDecider } from '../../../../services/domain/admission/decider.ts';
import { fold } from '../../../../core/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import { charged, opened, purchased } from '../account/fixtures/account.ts';

type E = AdmissionEvent | AccountEvent;
const admitted = (auditId: string): E => ({ type: 'AuditAdmitted', data: { auditId } });
const released = (auditId: string): E => ({ type: 'AuditReleased', data: { auditId } });
const admit = (auditId: string) => ({ type: 'AdmitAudit' as const, data: { auditId } });
const release = (auditId: string) => ({ type: 'ReleaseAudit' as const, data: { auditId } });
const s = spec(admissionDecider);

t.test('when the account is not opened', async (t) => {
  t.test('an audit is refused as not found', s.given([]).when(admit('aud_1')).thenThrows('not_found'));
});

t.test('when opened without credits', async (t) => {
  t.test(
    '402 insufficient_credits',
    s.given([opened()]).when(admit('aud_1')).thenThrows('insufficient_credits', 'Insufficient credits'),
  );
  t.test(
    'after the last credit was charged, still 402',
    s
      .given([opened(), purchased(1), charged('aud_0')])
      .when(admit('aud_1'))
      .thenThrows('insufficient_credits'),
  );
});

t.test('when opened with credits', async (t) => {
  const rich = [opened(), purchased(10)];
  t.test(
    'an audit is admitted',
    s
      .given(rich)
      .when(admit('aud_1'))
      .then([admitted('aud_1')]),
  );
  t.test(
    'admitting the same audit again is a no-op',
    s
      .given([...rich, admitted('aud_1')])
      .when(admit('aud_1'))
      .then([]),
  );
  t.test(
    'a fourth audit in flight (queued ones count) is refused with 429',
    s
      .given([...rich, admitted('a'), admitted('b'), admitted('c')])
      .when(admit('d'))
      .thenThrows('rate_limited', /At most 3 audits/),
  );
  t.test(
    'once one is released, a new one is admitted',
    s
      .given([...rich, admitted('a'), admitted('b'), admitted('c'), released('b')])
      .when(admit('d'))
      .then([admitted('d')]),
  );
  t.test(
    'release of an audit in flight',
    s
      .given([...rich, admitted('a')])
      .when(release('a'))
      .then([released('a')]),
  );
  t.test(
    'release twice is a no-op',
    s
      .given([...rich, admitted('a'), released('a')])
      .when(release('a'))
      .then([]),
  );
  t.test('release of an audit never admitted is a no-op', s.given(rich).when(release('x')).then([]));
});

t.test('when unlimited', async (t) => {
  t.test(
    'admitted without any credit',
    s
      .given([opened({ unlimited: true })])
      .when(admit('aud_1'))
      .then([admitted('aud_1')]),
  );
  t.test(
    'still at most three in flight',
    s
      .given([opened({ unlimited: true }), admitted('a'), admitted('b'), admitted('c')])
      .when(admit('d'))
      .thenThrows('rate_limited'),
  );
});

t.test('the 429 carries a retryAfter for the client', async (t) => {
  try {
    admissionDecider.decide(
      admit('d'),
      fold(admissionDecider, [opened(), purchased(5), admitted('a'), admitted('b'), admitted('c')]),
    );
    t.fail('expected a refusal');
  } catch (e) {
    t.equal((e as { extra: { retryAfter: number } }).extra.retryAfter, 15);
  }
});
