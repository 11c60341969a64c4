import fc from 'fast-check';
import t from 'tap';
import type { AccountStreamEvent as AccountEvent } from '../../../../services/domain/account/state.ts';
import type { AccountCommand } from '../../../../services/domain/account/commands.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import { chargeIdFor, chargeOf, historyOf, type TimedEvent } from '../../../../services/domain/account/ledger.ts';
import type { AccountState } from '../../../../services/domain/account/state.ts';
import { fold } from '../../../../core/decider.ts';
import { isAppError } from '../../../../core/errors.ts';
import { opened } from './fixtures/account.ts';

/**
 * Random histories of purchases, charges, refunds and adjustments, with retries (a command sent
 * again later) and races (two commands decided on the same state; as under optimistic concurrency,
 * the loser is decided again on the state the winner left). Small id pools make repeats, unknown
 * refunds and conflicting reuse of ids frequent.
 */

const { decide, evolve } = accountDecider;

const kind = fc.constantFrom('audit' as const, 'apply' as const);
const subjectOf = (k: 'audit' | 'apply', n: number): string => (k === 'audit' ? `aud_${n}` : `rev_${n}`);

const purchaseCmd = fc
  .record({ n: fc.integer({ min: 1, max: 4 }), credits: fc.integer({ min: 1, max: 3 }) })
  .map(({ n, credits }): AccountCommand => ({ type: 'PurchaseCredits', data: { paymentId: `pay_${n}`, credits } }));
const chargeCmd = fc.record({ kind, n: fc.integer({ min: 1, max: 6 }) }).map(({ kind, n }): AccountCommand => ({
  type: 'ChargeCredit',
  data: { kind, subjectId: subjectOf(kind, n), jobId: null, url: null, project: null },
}));
const refundCmd = fc.record({ kind, n: fc.integer({ min: 1, max: 6 }) }).map(({ kind, n }): AccountCommand => ({
  type: 'RefundCharge',
  data: { kind, subjectId: subjectOf(kind, n), reason: 'failed' },
}));
const adjustCmd = fc
  .record({ n: fc.integer({ min: 1, max: 3 }), delta: fc.integer({ min: -4, max: 4 }) })
  .map(({ n, delta }): AccountCommand => ({
    type: 'AdjustCredits',
    data: { adjustmentId: `adj_${n}`, delta, actor: 'ops', reason: 'fix' },
  }));
const unlimitedCmd = fc
  .boolean()
  .map((unlimited): AccountCommand => ({ type: 'SetUnlimited', data: { unlimited, actor: 'ops', reason: 'test' } }));

type Step =
  | { kind: 'do'; command: AccountCommand }
  | { kind: 'retry'; index: number }
  | { kind: 'race'; a: AccountCommand; b: AccountCommand };

const stepsOf = (command: fc.Arbitrary<AccountCommand>): fc.Arbitrary<Step[]> =>
  fc.array(
    fc.oneof(
      { weight: 6, arbitrary: command.map((command): Step => ({ kind: 'do', command })) },
      { weight: 3, arbitrary: fc.nat().map((index): Step => ({ kind: 'retry', index })) },
      { weight: 1, arbitrary: fc.tuple(command, command).map(([a, b]): Step => ({ kind: 'race', a, b })) },
    ),
    { maxLength: 60 },
  );

const credits = fc.oneof(
  { weight: 3, arbitrary: chargeCmd },
  { weight: 2, arbitrary: refundCmd },
  purchaseCmd,
  adjustCmd,
);

/** A simulated stream: decide, append, evolve; every invariant checked after every step. */
const run = (start: AccountEvent[], steps: Step[]): void => {
  let state: AccountState = fold(accountDecider, start);
  const log: AccountEvent[] = [...start];
  const sent: AccountCommand[] = [];

  const handle = (command: AccountCommand, against: AccountState): void => {
    const before = against;
    let events: AccountEvent[];
    try {
      events = decide(command, against);
    } catch (error) {
      if (!isAppError(error)) throw error;
      checkRefusal(command, before, error.code);
      return;
    }
    if (before.status === 'Open' && before.unlimited && events.some((e) => e.type === 'CreditCharged')) {
      throw new Error(`charged an unlimited account: ${JSON.stringify(command)}`);
    }
    for (const e of events) {
      log.push(e);
      state = evolve(state, e);
    }
    check(state, log);
  };

  for (const step of steps) {
    if (step.kind === 'do') {
      sent.push(step.command);
      handle(step.command, state);
    } else if (step.kind === 'retry') {
      if (sent.length === 0) continue;
      handle(sent[step.index % sent.length]!, state);
    } else {
      sent.push(step.a, step.b);
      const stale = state;
      const versionBefore = log.length;
      handle(step.a, stale);
      // The loser of the race: if the winner appended, the store refuses the stale append
      // (concurrency_conflict) and the command is decided again on the new state.
      handle(step.b, log.length === versionBefore ? stale : state);
    }
  }
};

/** Refusals are only the documented ones. */
const checkRefusal = (command: AccountCommand, state: AccountState, code: string): void => {
  if (state.status !== 'Open') throw new Error('the account is open in these runs');
  if (command.type === 'ChargeCredit') {
    const fresh = !chargeOf(state, command.data.kind, command.data.subjectId);
    if (code !== 'insufficient_credits' || state.balance > 0 || state.unlimited || !fresh) {
      throw new Error(
        `charge refused with ${code} at balance ${state.balance}, unlimited ${state.unlimited}, fresh ${fresh}`,
      );
    }
  } else if (command.type === 'RefundCharge') {
    if (code !== 'not_found' || state.unlimited) throw new Error(`refund refused with ${code}`);
  } else if (command.type === 'AdjustCredits' || command.type === 'PurchaseCredits') {
    if (code !== 'invalid_request') throw new Error(`${command.type} refused with ${code}`);
  } else {
    throw new Error(`${command.type} refused with ${code}`);
  }
};

const check = (state: AccountState, log: AccountEvent[]): void => {
  if (state.status !== 'Open') throw new Error('not open');
  if (state.balance < 0) throw new Error(`balance ${state.balance}`);

  const charges = new Map<string, number>();
  const refunds = new Map<string, number>();
  for (const e of log) {
    if (e.type === 'CreditCharged') charges.set(e.data.chargeId, (charges.get(e.data.chargeId) ?? 0) + 1);
    if (e.type === 'CreditRefunded') {
      if (!charges.has(e.data.chargeId)) throw new Error(`refund before charge ${e.data.chargeId}`);
      refunds.set(e.data.chargeId, (refunds.get(e.data.chargeId) ?? 0) + 1);
    }
  }
  for (const [id, n] of charges) if (n > 1) throw new Error(`${id} charged ${n} times`);
  for (const [id, n] of refunds) if (n > 1) throw new Error(`${id} refunded ${n} times`);

  const timed: TimedEvent[] = log.map((event, i) => ({
    event,
    occurredAt: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
  }));
  const history = historyOf(timed);
  const sum = history.reduce((s, e) => s + e.delta, 0);
  if (sum !== state.balance) throw new Error(`history sums to ${sum}, balance is ${state.balance}`);
  const used = -history.filter((e) => e.type === 'audit' || e.type === 'apply').reduce((s, e) => s + e.delta, 0);
  if (used !== state.used) throw new Error(`history says used ${used}, state ${state.used}`);

  // The command side's state is what a replay of the log gives.
  const replayed = fold(accountDecider, log);
  if (JSON.stringify(replayed) !== JSON.stringify(state)) throw new Error('replay differs from the live state');
};

const RUNS = 500;

t.test(
  'a limited account: balance >= 0, each subject charged and refunded at most once, history sums to the balance',
  async (t) => {
    fc.assert(
      fc.property(stepsOf(credits), (steps) => run([opened()], steps)),
      { numRuns: RUNS },
    );
    t.pass(`held for ${RUNS} random histories`);
  },
);

t.test('an account switched between unlimited and limited: never charged while unlimited', async (t) => {
  const withToggles = fc.oneof({ weight: 6, arbitrary: credits }, { weight: 1, arbitrary: unlimitedCmd });
  fc.assert(
    fc.property(fc.boolean(), stepsOf(withToggles), (unlimited, steps) => run([opened({ unlimited })], steps)),
    { numRuns: RUNS },
  );
  t.pass(`held for ${RUNS} random histories`);
});

t.test('an unlimited account never has a CreditCharged event', async (t) => {
  fc.assert(
    fc.property(fc.constantFrom('user' as const, 'admin' as const), stepsOf(credits), (role, steps) => {
      const start = [opened({ role, unlimited: true })];
      const log: AccountEvent[] = [...start];
      let state = fold(accountDecider, start);
      for (const step of steps) {
        if (step.kind !== 'do') continue;
        try {
          for (const e of decide(step.command, state)) {
            log.push(e);
            state = evolve(state, e);
          }
        } catch (error) {
          if (!isAppError(error)) throw error;
        }
      }
      if (log.some((e) => e.type === 'CreditCharged')) throw new Error('an unlimited account was charged');
      if (state.status !== 'Open' || state.used !== 0) throw new Error('used must be 0');
    }),
    { numRuns: RUNS },
  );
  t.pass(`held for ${RUNS} random histories`);
});

t.test('the properties can fail: a decider that charges twice is caught', async (t) => {
  // Guards the harness itself: a broken rule must not pass unnoticed.
  const broken = (command: AccountCommand, state: AccountState): AccountEvent[] =>
    command.type === 'ChargeCredit' && state.status === 'Open' && state.balance > 0
      ? [
          {
            type: 'CreditCharged',
            data: {
              chargeId: chargeIdFor(command.data.kind, command.data.subjectId),
              kind: command.data.kind,
              subjectId: command.data.subjectId,
              credits: 1,
              jobId: null,
              url: null,
              project: null,
            },
          },
        ]
      : decide(command, state);
  const log: AccountEvent[] = [opened()];
  let state = fold(accountDecider, log);
  const charge: AccountCommand = {
    type: 'ChargeCredit',
    data: { kind: 'audit', subjectId: 'aud_1', jobId: null, url: null, project: null },
  };
  for (const c of [
    { type: 'PurchaseCredits', data: { paymentId: 'pay_1', credits: 2 } } as AccountCommand,
    charge,
    charge,
  ]) {
    for (const e of broken(c, state)) {
      log.push(e);
      state = evolve(state, e);
    }
  }
  t.throws(() => check(state, log), /charged 2 times/);
});
