import t from 'tap';
import type { AccountEvent } from '../../../../events/account/index.ts';
import { accountDecider, toRecord } from '../../../../services/domain/account/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import {
  adjust,
  adjusted,
  charge,
  charged,
  opened,
  purchase,
  purchased,
  refund,
  refunded,
} from './fixtures/account.ts';

/** The credit ledger: purchases, charges, refunds, adjustments; grouped by starting state. */
const given = spec(accountDecider).given;

t.test('when opened with 0 credits', async (t) => {
  const history: AccountEvent[] = [opened()];
  t.test(
    'a charge is refused with 402 insufficient_credits',
    given(history).when(charge('aud_1')).thenThrows('insufficient_credits', 'Insufficient credits'),
  );
  t.test(
    'an apply charge is refused the same way',
    given(history).when(charge('rev_1', 'apply')).thenThrows('insufficient_credits', 'Insufficient credits'),
  );
  t.test(
    'a purchase adds credits',
    given(history)
      .when(purchase('pay_abc', 10))
      .then([purchased(10, 'pay_abc')]),
  );
  t.test(
    'a paymentId without pay_ is refused',
    given(history).when(purchase('abc', 10)).thenThrows('invalid_request', /pay_/),
  );
  for (const credits of [0, -3, 1.5, Number.NaN]) {
    t.test(
      `a purchase of ${credits} credits is refused`,
      given(history)
        .when(purchase('pay_x', credits))
        .thenThrows('invalid_request', /positive integer/),
    );
  }
  t.test(
    'a positive adjustment adds credits',
    given(history)
      .when(adjust('adj_1', 5))
      .then([adjusted('adj_1', 5)]),
  );
  t.test(
    'a negative adjustment below zero is refused, saying why',
    given(history)
      .when(adjust('adj_1', -1))
      .thenThrows('invalid_request', 'adjustment of -1 would take the balance of 0 below zero'),
  );
  t.test(
    'a zero adjustment is refused',
    given(history)
      .when(adjust('adj_1', 0))
      .thenThrows('invalid_request', /non-zero integer/),
  );
  t.test(
    'a fractional adjustment is refused',
    given(history)
      .when(adjust('adj_1', 1.5))
      .thenThrows('invalid_request', /non-zero integer/),
  );
  t.test(
    'an adjustment needs an actor',
    given(history)
      .when(adjust('adj_1', 5, ''))
      .thenThrows('invalid_request', /actor/),
  );
  t.test(
    'an adjustment needs a reason',
    given(history)
      .when(adjust('adj_1', 5, 'ops', '  '))
      .thenThrows('invalid_request', /reason/),
  );
  t.test(
    'an adjustment needs an id',
    given(history)
      .when(adjust('', 5))
      .thenThrows('invalid_request', /adjustmentId/),
  );
  t.test(
    'a refund of a charge that does not exist is not_found',
    given(history)
      .when(refund('aud_1'))
      .thenThrows('not_found', /no charge for audit aud_1/),
  );
});

t.test('when opened with 2 credits', async (t) => {
  const history: AccountEvent[] = [opened(), purchased(2)];
  t.test(
    'an audit charge takes 1 credit and records what it was for',
    given(history)
      .when({
        type: 'ChargeCredit',
        data: { kind: 'audit', subjectId: 'aud_1', jobId: 'job_1', url: 'https://example.com/a', project: 'blog' },
      })
      .then([
        {
          type: 'CreditCharged',
          data: {
            chargeId: 'chg_audit_aud_1',
            kind: 'audit',
            subjectId: 'aud_1',
            credits: 1,
            jobId: 'job_1',
            url: 'https://example.com/a',
            project: 'blog',
          },
        },
      ]),
  );
  t.test(
    'an apply generation is charged by its revision id',
    given(history)
      .when(charge('rev_1', 'apply'))
      .then([charged('rev_1', 'apply')]),
  );
  t.test(
    'an audit charge needs an audit id',
    given(history).when(charge('job_1')).thenThrows('invalid_request', /aud_/),
  );
  t.test(
    'a charge needs a subject',
    given(history)
      .when(charge('', 'apply'))
      .thenThrows('invalid_request', /subjectId/),
  );
  t.test(
    'an unknown kind is refused',
    given(history)
      .when({
        type: 'ChargeCredit',
        data: { kind: 'share' as 'audit', subjectId: 'x', jobId: null, url: null, project: null },
      })
      .thenThrows('invalid_request', /kind/),
  );
  t.test(
    'a negative adjustment down to exactly zero is accepted',
    given(history)
      .when(adjust('adj_1', -2))
      .then([adjusted('adj_1', -2)]),
  );
  t.test(
    'a negative adjustment below zero is refused',
    given(history)
      .when(adjust('adj_1', -3))
      .thenThrows('invalid_request', 'adjustment of -3 would take the balance of 2 below zero'),
  );
  t.test('the same purchase again (a replay) is a no-op', given(history).when(purchase('pay_2', 2)).then([]));
  t.test(
    'the same paymentId with other credits is refused',
    given(history)
      .when(purchase('pay_2', 5))
      .thenThrows('invalid_request', /pay_2 was already recorded with 2 credits/),
  );
});

t.test('when a charge exists', async (t) => {
  const history: AccountEvent[] = [opened(), purchased(5), charged('aud_1'), adjusted('adj_1', 3)];
  t.test(
    'charging the same audit again (retry, race, restart) is a no-op',
    given(history).when(charge('aud_1')).then([]),
  );
  t.test(
    'an apply of another subject is charged separately',
    given(history)
      .when(charge('rev_1', 'apply'))
      .then([charged('rev_1', 'apply')]),
  );
  t.test(
    'another audit is charged',
    given(history)
      .when(charge('aud_2'))
      .then([charged('aud_2')]),
  );
  t.test(
    'a refund gives the credit back',
    given(history)
      .when(refund('aud_1'))
      .then([refunded('aud_1')]),
  );
  t.test(
    'a refund needs a reason',
    given(history)
      .when(refund('aud_1', 'audit', ''))
      .thenThrows('invalid_request', /reason/),
  );
  t.test(
    'a refund of another kind for the same id is not_found',
    given(history).when(refund('aud_1', 'apply')).thenThrows('not_found'),
  );
  t.test('the same adjustment again is a no-op', given(history).when(adjust('adj_1', 3)).then([]));
  t.test(
    'the same adjustmentId with another delta is refused',
    given(history)
      .when(adjust('adj_1', -3))
      .thenThrows('invalid_request', /adj_1 was already recorded/),
  );
});

t.test('when the balance ran out', async (t) => {
  const history: AccountEvent[] = [opened(), purchased(1), charged('aud_1')];
  t.test(
    'a new charge is refused',
    given(history).when(charge('aud_2')).thenThrows('insufficient_credits', 'Insufficient credits'),
  );
  t.test(
    'a retry of the charge that took the last credit is still a no-op, not a 402',
    given(history).when(charge('aud_1')).then([]),
  );
  t.test(
    'a refund makes the credit available again',
    given([...history, refunded('aud_1')])
      .when(charge('aud_2'))
      .then([charged('aud_2')]),
  );
});

t.test('when a charge was refunded', async (t) => {
  const history: AccountEvent[] = [opened(), purchased(3), charged('rev_1', 'apply'), refunded('rev_1', 'apply')];
  t.test('a second refund is a no-op', given(history).when(refund('rev_1', 'apply')).then([]));
  t.test(
    'charging it again is a no-op: a subject is charged at most once, ever',
    given(history).when(charge('rev_1', 'apply')).then([]),
  );
});

t.test('when unlimited', async (t) => {
  const unlimited: AccountEvent[] = [opened({ unlimited: true })];
  t.test('a charge records nothing and never fails for balance', given(unlimited).when(charge('aud_1')).then([]));
  t.test('an apply charge records nothing', given(unlimited).when(charge('rev_1', 'apply')).then([]));
  t.test(
    'an administrator is not charged either',
    given([opened({ role: 'admin', unlimited: true })])
      .when(charge('aud_1'))
      .then([]),
  );
  t.test(
    'a refund of a charge never taken is a no-op (nothing to give back)',
    given(unlimited).when(refund('aud_1')).then([]),
  );
  t.test(
    'purchases are still recorded',
    given(unlimited)
      .when(purchase('pay_1', 1))
      .then([purchased(1, 'pay_1')]),
  );
  t.test(
    'adjustments are still recorded',
    given(unlimited)
      .when(adjust('adj_1', 4))
      .then([adjusted('adj_1', 4)]),
  );
  t.test(
    'a negative adjustment still cannot go below zero',
    given(unlimited)
      .when(adjust('adj_1', -1))
      .thenThrows('invalid_request', /below zero/),
  );

  const becameUnlimited: AccountEvent[] = [
    opened(),
    purchased(1),
    charged('aud_1'),
    { type: 'UnlimitedSet', data: { unlimited: true, actor: 'ops', reason: 'partner' } },
  ];
  t.test(
    'a charge taken before it became unlimited can still be refunded',
    given(becameUnlimited)
      .when(refund('aud_1'))
      .then([refunded('aud_1')]),
  );
  t.test('a new charge records nothing', given(becameUnlimited).when(charge('aud_2')).then([]));
  t.test(
    'once limited again it pays again',
    given([
      ...becameUnlimited,
      { type: 'UnlimitedSet', data: { unlimited: false, actor: 'ops', reason: 'contract ended' } },
    ])
      .when(charge('aud_2'))
      .thenThrows('insufficient_credits'),
  );
});

t.test('state after a mixed history', async (t) => {
  const events: AccountEvent[] = [
    opened(),
    purchased(5),
    charged('aud_1'),
    charged('aud_2'),
    charged('rev_1', 'apply'),
    refunded('aud_2'),
    adjusted('adj_1', -1),
  ];
  const state = events.reduce(accountDecider.evolve, accountDecider.initialState());
  if (state.status !== 'Open') return t.fail('not open');
  t.equal(state.balance, 5 - 1 - 1 - 1 + 1 - 1, 'balance');
  t.equal(state.used, 2, 'used: charged and not refunded');
  t.strictSame(toRecord(state.charges), {
    chg_audit_aud_1: { kind: 'audit', subjectId: 'aud_1', credits: 1, refunded: false },
    chg_audit_aud_2: { kind: 'audit', subjectId: 'aud_2', credits: 1, refunded: true },
    chg_apply_rev_1: { kind: 'apply', subjectId: 'rev_1', credits: 1, refunded: false },
  });
  t.strictSame(toRecord(state.payments), { pay_5: 5 });
  t.strictSame(toRecord(state.adjustments), { adj_1: -1 });
});
