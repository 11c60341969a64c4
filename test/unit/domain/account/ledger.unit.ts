import t from 'tap';
import type { AccountEvent } from '../../../../events/account/index.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import {
  balanceOf,
  chargeIdFor,
  historyOf,
  usedOf,
  type TimedEvent,
} from '../../../../services/domain/account/ledger.ts';
import { adjusted, charged, keyIssued, opened, purchased, refunded } from './fixtures/account.ts';

const timed = (events: AccountEvent[]): TimedEvent[] =>
  events.map((event, i) => ({ event, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }));
const at = (i: number): string => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
const stateOf = (events: AccountEvent[]) => events.reduce(accountDecider.evolve, accountDecider.initialState());

t.test('chargeIdFor derives one id per (kind, subject)', async (t) => {
  t.equal(chargeIdFor('audit', 'aud_1'), 'chg_audit_aud_1');
  t.equal(chargeIdFor('apply', 'rev_1'), 'chg_apply_rev_1');
  t.not(chargeIdFor('audit', 'x'), chargeIdFor('apply', 'x'));
});

t.test('balanceOf and usedOf', async (t) => {
  t.equal(balanceOf(accountDecider.initialState()), 0, 'no account, no credits');
  t.equal(usedOf(accountDecider.initialState()), 0);
  const state = stateOf([opened(), purchased(3), charged('aud_1'), charged('aud_2'), refunded('aud_2')]);
  t.equal(balanceOf(state), 2);
  t.equal(usedOf(state), 1);
});

t.test('historyOf', async (t) => {
  const events: AccountEvent[] = [
    opened(),
    keyIssued('key_1'),
    purchased(3, 'pay_a'),
    {
      type: 'CreditCharged',
      data: {
        chargeId: 'chg_audit_aud_1',
        kind: 'audit',
        subjectId: 'aud_1',
        credits: 1,
        jobId: 'job_1',
        url: 'https://example.com/',
        project: 'blog',
      },
    },
    charged('rev_1', 'apply'),
    refunded('rev_1', 'apply'),
    adjusted('adj_1', -1),
    { type: 'UnlimitedSet', data: { unlimited: true, actor: 'ops', reason: 'partner' } },
  ];
  const history = historyOf(timed(events));

  t.strictSame(
    history,
    [
      { type: 'adjustment', id: 'adj_1', delta: -1, refunded: false, url: null, project: null, createdAt: at(6) },
      // A refunded charge stays one entry, delta 0, at the time of the charge (spec 2.8).
      { type: 'apply', id: 'rev_1', delta: 0, refunded: true, url: null, project: null, createdAt: at(4) },
      {
        type: 'audit',
        id: 'aud_1',
        delta: -1,
        refunded: false,
        url: 'https://example.com/',
        project: 'blog',
        createdAt: at(3),
      },
      { type: 'purchase', id: 'pay_a', delta: 3, refunded: false, url: null, project: null, createdAt: at(2) },
    ],
    'newest first; keys and the unlimited flag move no credit',
  );

  const sum = history.reduce((s, e) => s + e.delta, 0);
  t.equal(sum, balanceOf(stateOf(events)), 'the sum of deltas is the balance');
  t.equal(
    -history.filter((e) => e.type === 'audit' || e.type === 'apply').reduce((s, e) => s + e.delta, 0),
    usedOf(stateOf(events)),
    'used is minus the charges',
  );
  t.strictSame(historyOf([]), [], 'no events, no history');
  t.strictSame(historyOf(timed([opened({ unlimited: true })])), [], 'an unlimited account has nothing charged');
});

t.test('historyOf ignores a refund it cannot place (never produced by the decider)', async (t) => {
  const history = historyOf(
    timed([opened(), purchased(1), refunded('aud_9'), charged('aud_1'), refunded('aud_1'), refunded('aud_1')]),
  );
  t.strictSame(
    history.map((e) => [e.id, e.delta, e.refunded]),
    [
      ['aud_1', 0, true],
      ['pay_1', 1, false],
    ],
  );
});
