/**
 * Who votes on the SERP's meaning (referentVote.ts), on vectors made for the purpose: a mostly
 * stuffed result gives its vote to the query's words, which break a one-against-one tie, confirm
 * or veto a page the results set apart, and decide nothing when they are the odd one out.
 */
import t from 'tap';
import { outliersOf, VOTER_SHARE } from '../../../services/engine/referentVote.ts';

const v = (entries: Record<string, number>) => new Map(Object.entries(entries));
// Two pages on one meaning (heating), one on another (engine), one generic stuffed page.
const heating = v({ boiler: 3, valve: 2, heating: 2, key: 1, air: 1 });
const heating2 = v({ boiler: 2, valve: 1, heating: 3, pressure: 1, air: 1 });
const engine = v({ coolant: 3, engine: 2, hose: 2, valve: 1, air: 1 });
const stuffed = v({ said: 3, sometimes: 2, air: 1, valve: 1, engine: 1 });
const askHeating = v({ heating: 1, boiler: 1, key: 1, pressure: 1 });
const askEngine = v({ coolant: 1, engine: 1, hose: 1 });

t.test('a result mostly stuffed does not vote; the query breaks the tie', async (t) => {
  const vs = [heating, engine, stuffed];
  const informative = [1, 1, VOTER_SHARE / 10];
  t.same(outliersOf(vs, informative, askHeating), [1], 'the page unlike the questions is the other meaning');
  const alone = outliersOf(vs, [1, 1, 1], new Map());
  t.same(outliersOf(vs, informative, new Map()), alone, 'without questions the stuffed page keeps its vote');
});

t.test('the query confirms or vetoes what the results decide', async (t) => {
  const vs = [heating, heating2, engine];
  t.same(outliersOf(vs, [1, 1, 1], new Map()), [2], 'the results alone');
  t.same(outliersOf(vs, [1, 1, 1], askHeating), [2], 'the questions agree');
  t.same(outliersOf(vs, [1, 1, 1], askEngine), [], 'the questions are about the page set apart: nobody left out');
});

t.test('the query as the odd one out decides nothing', async (t) => {
  const vs = [heating, engine, stuffed];
  t.same(outliersOf(vs, [1, 1, 0], v({ recipe: 1, dough: 1 })), []);
});
