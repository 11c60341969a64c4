import type { DomainEvent } from '../../core/decider.ts';
import type { Decider } from '../../core/decider.ts';
import { fold } from '../../core/decider.ts';
import { isAppError, type ErrorCode } from '../../core/errors.ts';

/** The few assertions the helper uses; tap's `t` has them (messages required to fit its types). */
export interface Asserts {
  strictSame(found: unknown, wanted: unknown, message: string): unknown;
  equal(found: unknown, wanted: unknown, message: string): unknown;
  match(found: unknown, pattern: RegExp | string, message: string): unknown;
  fail(message: string): unknown;
}

/** Async so that tap ends the subtest when it returns. */
type Check = (t: Asserts) => Promise<void>;

/**
 * Given/when/then for any decider, after Emmett's DeciderSpecification:
 *
 *   t.test('charges one credit', spec(decider).given([opened, purchased]).when(charge).then([charged]));
 *   t.test('refuses at zero', spec(decider).given([opened]).when(charge).thenThrows('insufficient_credits'));
 *
 * `given` events are folded with the decider's own evolve; the state is deep-frozen, so a decide
 * that mutates its state fails the test instead of passing by accident.
 */
export const spec = <C, E extends DomainEvent, S>(decider: Decider<C, E, S>) => ({
  given: (events: readonly E[]) => ({
    when: (command: C) => {
      const run = (): E[] => decider.decide(command, deepFreeze(fold(decider, events)));
      return {
        then:
          (expected: readonly E[]): Check =>
          async (t) => {
            let found: E[];
            try {
              found = run();
            } catch (error) {
              t.fail(`expected events, got ${describe(error)}`);
              return;
            }
            t.strictSame(found, expected, 'decided events');
          },
        /** Refused with this AppError code (and a message matching `message`, when given). */
        thenThrows:
          (code: ErrorCode, message?: RegExp | string): Check =>
          async (t) => {
            let found: E[];
            try {
              found = run();
            } catch (error) {
              if (!isAppError(error)) {
                t.fail(`expected AppError ${code}, got ${describe(error)}`);
                return;
              }
              t.equal(error.code, code, 'error code');
              if (message !== undefined) t.match(error.message, message, 'error message');
              return;
            }
            t.fail(`expected AppError ${code}, got events ${JSON.stringify(found)}`);
          },
      };
    },
  }),
});

const describe = (error: unknown): string =>
  isAppError(error)
    ? `AppError ${error.code}: ${error.message}`
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : String(error);

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};
