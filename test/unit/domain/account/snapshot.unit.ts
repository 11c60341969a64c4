import fc from 'fast-check';
import t from 'tap';
import { fold } from '../../../../core/decider.ts';
import { isAppError } from '../../../../core/errors.ts';
import type { AccountCommand } from '../../../../services/domain/account/commands.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import { accountStateView } from '../../../helpers/accountStateView.ts';
import type { AccountState, AccountStreamEvent } from '../../../../services/domain/account/state.ts';
import { opened } from './fixtures/account.ts';

/**
 * The account decider's snapshot (services/domain/account/snapshot.ts) is only a cache: a state
 * taken through it (to JSON and back, as the store keeps it) must be the state, and decide every
 * next command as the fold of the whole stream does: the balance, the charged-once rule and
 * admission included (issue 26).
 */
const snap = accountDecider.snapshot!;
const throughSnapshot = (s: AccountState): AccountState => snap.fromJson(JSON.parse(JSON.stringify(snap.toJson(s))));

const outcome = (command: AccountCommand, state: AccountState): unknown => {
  try {
    return accountDecider.decide(command, state);
  } catch (e) {
    if (isAppError(e)) return { refused: e.code };
    throw e;
  }
};

const n = fc.integer({ min: 1, max: 8 });
const kind = fc.constantFrom('audit' as const, 'apply' as const);
const command: fc.Arbitrary<AccountCommand> = fc.oneof(
  fc.record({ n, credits: fc.integer({ min: 1, max: 3 }) }).map(({ n, credits }): AccountCommand => ({
    type: 'PurchaseCredits',
    data: { paymentId: `pay_${n}`, credits },
  })),
  fc.record({ kind, n }).map(({ kind, n }): AccountCommand => ({
    type: 'ChargeCredit',
    data: { kind, subjectId: `${kind}_${n}`, jobId: null, url: null, project: null },
  })),
  fc.record({ kind, n }).map(({ kind, n }): AccountCommand => ({
    type: 'RefundCharge',
    data: { kind, subjectId: `${kind}_${n}`, reason: 'failed' },
  })),
  fc.record({ n, delta: fc.integer({ min: -3, max: 3 }) }).map(({ n, delta }): AccountCommand => ({
    type: 'AdjustCredits',
    data: { adjustmentId: `adj_${n}`, delta, actor: 'ops', reason: 'fix' },
  })),
  n.map((n): AccountCommand => ({ type: 'AdmitAudit', data: { auditId: `aud_${n}` } })),
  n.map((n): AccountCommand => ({ type: 'ReleaseAudit', data: { auditId: `aud_${n}` } })),
  n.map((n): AccountCommand => ({ type: 'AdmitGeneration', data: { revisionId: `rev_${n}` } })),
  n.map((n): AccountCommand => ({ type: 'ReleaseGeneration', data: { revisionId: `rev_${n}` } })),
  fc.boolean().map((unlimited): AccountCommand => ({
    type: 'SetUnlimited',
    data: { unlimited, actor: 'ops', reason: 'test' },
  })),
);

t.test('a state through the snapshot is the state, and decides every next command as the fold does', async (t) => {
  fc.assert(
    fc.property(
      fc.array(command, { maxLength: 80 }),
      fc.array(command, { minLength: 1, maxLength: 10 }),
      (history, next) => {
        // A history as the store would hold it: each command decided on the state so far.
        const log: AccountStreamEvent[] = [opened()];
        let state = fold(accountDecider, log);
        for (const c of history) {
          const decided = outcome(c, state);
          if (!Array.isArray(decided)) continue;
          for (const e of decided as AccountStreamEvent[]) {
            log.push(e);
            state = accountDecider.evolve(state, e);
          }
        }
        const back = throughSnapshot(state);
        if (JSON.stringify(accountStateView(back)) !== JSON.stringify(accountStateView(state))) return false;
        return next.every((c) => JSON.stringify(outcome(c, back)) === JSON.stringify(outcome(c, state)));
      },
    ),
    { numRuns: 300 },
  );
  t.pass('300 histories: the same state and the same decisions through the snapshot');
});

t.test('a charge taken before the snapshot is not taken again after it', async (t) => {
  const state = fold(accountDecider, [
    opened(),
    { type: 'CreditsPurchased', data: { paymentId: 'p', credits: 5 } },
  ] as AccountStreamEvent[]);
  const charge: AccountCommand = {
    type: 'ChargeCredit',
    data: { kind: 'audit', subjectId: 'aud_1', jobId: null, url: null, project: null },
  };
  const [charged] = accountDecider.decide(charge, state);
  const back = throughSnapshot(accountDecider.evolve(state, charged!));
  t.same(accountDecider.decide(charge, back), [], 'charged once, ever');
  t.equal(back.status === 'Open' && back.balance, 4);
  t.same(throughSnapshot({ status: 'NotOpened' }), { status: 'NotOpened' }, 'a stream not opened yet');
});
