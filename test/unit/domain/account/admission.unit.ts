import t from 'tap';
import type { AdmissionEvent } from '../../../../events/account/admission.ts';
import type { AccountEvent } from '../../../../events/account/index.ts';
import { admissionDecider } from '../../../../services/domain/account/admissionView.ts';
import { fold } from '../../../../core/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import { charged, opened, purchased } from './fixtures/account.ts';

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

/** A small seeded generator (mulberry32): the same histories on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), seed | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};

t.test('its compact state agrees with the account decider on balance, open and unlimited', async (t) => {
  // Histories the account decider itself decides (refusals dropped), with admissions between.
  for (let seed = 1; seed <= 40; seed++) {
    const rnd = random(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    let account = accountDecider.initialState();
    let admission = admissionDecider.initialState();
    const apply = (events: E[]) => {
      for (const e of events) {
        if (e.type !== 'AuditAdmitted' && e.type !== 'AuditReleased')
          account = accountDecider.evolve(account, e as AccountEvent);
        admission = admissionDecider.evolve(admission, e);
      }
    };
    apply([opened({ unlimited: rnd() < 0.1 })]);
    const subjects: string[] = [];
    for (let step = 0; step < 200; step++) {
      const subject = `aud_${Math.floor(rnd() * 60)}`;
      const command = pick([
        {
          type: 'PurchaseCredits',
          data: { paymentId: `pay_${Math.floor(rnd() * 30)}`, credits: 1 + Math.floor(rnd() * 5) },
        },
        { type: 'ChargeCredit', data: { kind: 'audit', subjectId: subject, jobId: null, url: null, project: null } },
        { type: 'ChargeCredit', data: { kind: 'apply', subjectId: subject, jobId: null, url: null, project: null } },
        {
          type: 'RefundCharge',
          data: { kind: pick(['audit', 'apply'] as const), subjectId: pick([subject, ...subjects]), reason: 'x' },
        },
        {
          type: 'AdjustCredits',
          data: { adjustmentId: `adj_${step}`, delta: pick([-2, -1, 1, 3]), actor: 'ops', reason: 'x' },
        },
        { type: 'SetUnlimited', data: { unlimited: rnd() < 0.3, actor: 'ops', reason: 'x' } },
      ] as const);
      subjects.push(subject);
      try {
        apply(accountDecider.decide(command as never, account) as E[]);
      } catch {
        // A refusal appends nothing.
      }
      if (rnd() < 0.2) {
        try {
          apply(admissionDecider.decide(pick([admit(subject), release(subject)]), admission));
        } catch {
          // 402 / 429: nothing appended.
        }
      }
      if (account.status !== 'Open') continue;
      if (admission.balance !== account.balance || admission.unlimited !== account.unlimited || !admission.open) {
        t.fail(
          `seed ${seed}, step ${step}: ${JSON.stringify({ admission: { ...admission, inFlight: [...admission.inFlight] }, balance: account.balance })}`,
        );
        return;
      }
    }
  }
  t.pass('40 histories of 200 steps agree');
});

t.test('the snapshot keeps the whole state', async (t) => {
  const snap = admissionDecider.snapshot!;
  const state = fold(admissionDecider, [opened(), purchased(5), admitted('a'), admitted('b'), released('a')]);
  const back = snap.fromJson(JSON.parse(JSON.stringify(snap.toJson(state))));
  t.same({ ...back, inFlight: [...back.inFlight] }, { ...state, inFlight: [...state.inFlight] });
  t.equal(back.inFlight.has('b'), true, 'a Set again');
});

t.test('the account decider decides admission with the same rules as its compact view', async (t) => {
  const full = spec(accountDecider);
  const rich = [opened(), purchased(10)];
  t.test('402 without a credit', full.given([opened()]).when(admit('aud_1')).thenThrows('insufficient_credits'));
  t.test(
    'admitted',
    full
      .given(rich)
      .when(admit('aud_1'))
      .then([admitted('aud_1')]),
  );
  t.test(
    'the fourth is 429',
    full
      .given([...rich, admitted('a'), admitted('b'), admitted('c')])
      .when(admit('d'))
      .thenThrows('rate_limited', /At most 3 audits/),
  );
  t.test(
    'released frees a place',
    full
      .given([...rich, admitted('a'), admitted('b'), admitted('c'), released('a')])
      .when(admit('d'))
      .then([admitted('d')]),
  );
  t.test('a release of an audit not in flight is a no-op', full.given(rich).when(release('x')).then([]));
});
