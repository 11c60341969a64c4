import t from 'tap';
import { planFaults, type FaultKind } from '../../../bench/cluster/nemesis.ts';

const kind = (name: string, hold: [number, number]): FaultKind => ({
  kind: name,
  holdMs: (d) => hold[0] + d * (hold[1] - hold[0]),
  inject: async () => name,
  heal: async () => undefined,
});
const kinds = [
  kind('broker-kill', [5_000, 15_000]),
  kind('postgres-stop', [3_000, 8_000]),
  kind('cut-off', [10_000, 25_000]),
];

t.test('the fault plan is bounded, seeded, and has every kind in every round', async (t) => {
  const plan = planFaults('seed-a', kinds, 4, [4_000, 12_000]);
  t.equal(plan.length, 12);
  for (let round = 0; round < 4; round++)
    t.same(
      plan
        .slice(round * 3, round * 3 + 3)
        .map((f) => f.kind)
        .sort(),
      ['broker-kill', 'cut-off', 'postgres-stop'],
    );
  t.ok(plan.every((f) => f.gapMs >= 4_000 && f.gapMs <= 12_000));
  t.ok(plan.filter((f) => f.kind === 'postgres-stop').every((f) => f.holdMs >= 3_000 && f.holdMs <= 8_000));
  t.same(planFaults('seed-a', kinds, 4, [4_000, 12_000]), plan, 'the same seed, the same plan');
  t.not(
    JSON.stringify(planFaults('seed-b', kinds, 4, [4_000, 12_000])),
    JSON.stringify(plan),
    'another seed, another plan',
  );
});
