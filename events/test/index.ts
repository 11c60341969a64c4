import { Type } from '@sinclair/typebox';
import { defineEvent } from '../define.ts';

/**
 * Events of the `test` stream: used by the contract suites of the log and by the bench, never by
 * the service's own code. `TestHappened` has two versions so upcasting and Avro evolution are
 * exercised on a real declaration.
 */
export const TestHappenedV1 = Type.Object({ n: Type.Integer() });

export const TestHappened = defineEvent(
  'TestHappened',
  'test',
  Type.Object({ n: Type.Integer(), note: Type.Union([Type.String(), Type.Null()]) }),
  [{ schema: TestHappenedV1, upcast: (p: { n: number }) => ({ n: p.n, note: null }) }],
);

export const testEvents = [TestHappened];
