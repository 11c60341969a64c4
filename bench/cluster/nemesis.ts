import { createHash } from 'node:crypto';
import { sleep } from '../../core/sleep.ts';

/**
 * The soak's nemesis: a bounded schedule of faults, drawn from a seed before the run (so a run can
 * be replayed), injected one at a time and logged with when each began and healed.
 */
export interface FaultKind {
  kind: string;
  /** How long the fault holds, ms, from a draw in [0, 1). */
  holdMs(draw: number): number;
  /** Injects it; the index counts this kind's faults (0 first); returns what it hit. */
  inject(index: number, draw: number): Promise<string>;
  heal(): Promise<void>;
}

export interface PlannedFault {
  kind: string;
  gapMs: number;
  holdMs: number;
  draw: number;
}

export interface InjectedFault {
  kind: string;
  target: string;
  from: number;
  to: number;
}

/** A deterministic draw in [0, 1) for (seed, i): a hash, not a stateful generator to carry around. */
export const draw = (seed: string, i: number): number =>
  createHash('sha256').update(`${seed}:${i}`).digest().readUInt32BE(0) / 2 ** 32;

/**
 * `rounds` rounds, each with every kind once in a seeded order (so each kind occurs), separated by
 * seeded gaps of gapMs[0]..gapMs[1].
 */
export function planFaults(seed: string, kinds: FaultKind[], rounds: number, gapMs: [number, number]): PlannedFault[] {
  const plan: PlannedFault[] = [];
  let i = 0;
  for (let round = 0; round < rounds; round++) {
    const order = kinds
      .map((k, n) => ({ k, key: draw(seed, 1_000_000 + round * 100 + n) }))
      .sort((a, b) => a.key - b.key);
    for (const { k } of order) {
      plan.push({
        kind: k.kind,
        gapMs: Math.round(gapMs[0] + draw(seed, i++) * (gapMs[1] - gapMs[0])),
        holdMs: Math.round(k.holdMs(draw(seed, i++))),
        draw: draw(seed, i++),
      });
    }
  }
  return plan;
}

/** Runs the plan until it ends or `stop()`; a fault begun is always healed before it returns. */
export function runNemesis(
  plan: PlannedFault[],
  kinds: FaultKind[],
  say: (s: string) => void,
): { done: Promise<InjectedFault[]>; stop(): void; count(): number; finished(): boolean } {
  let stopping = false;
  let finished = false;
  const injected: InjectedFault[] = [];
  const counts = new Map<string, number>();
  const done = (async () => {
    for (const f of plan) {
      await sleep(f.gapMs);
      if (stopping) break;
      const kind = kinds.find((k) => k.kind === f.kind)!;
      const index = counts.get(f.kind) ?? 0;
      counts.set(f.kind, index + 1);
      const from = Date.now();
      const target = await kind.inject(index, f.draw);
      say(`fault ${injected.length + 1}/${plan.length}: ${f.kind} on ${target} for ${f.holdMs} ms`);
      await sleep(f.holdMs);
      await kind.heal();
      injected.push({ kind: f.kind, target, from, to: Date.now() });
      say(`healed ${f.kind} on ${target} after ${Date.now() - from} ms`);
    }
    finished = true;
    return injected;
  })();
  return {
    done,
    count: () => injected.length,
    finished: () => finished,
    stop: () => {
      stopping = true;
    },
  };
}
