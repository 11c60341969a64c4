/**
 * The hand-written GEO variants (issue 24, item 6) apply to their articles as written: every anchor
 * is in exactly one block, and each edit adds its text. On the tuning half and corpus-a, stuffing and
 * filler never raise CQS and quotations, statistics and citations raise it (corpus-c: see the test); the held-out half is
 * measured by `npm run eval`, never asserted (it must not steer the engine).
 */
import t from 'tap';
import {
  applyEdits,
  HAND_GAMING,
  HAND_HALVES,
  HAND_SETS,
  HAND_VARIANTS,
  handFiles,
  handRows,
  type HandVariant,
} from '../../eval/geoHand.ts';

t.test('applyEdits: after adds a block, append extends one; an anchor must be unique', async (t) => {
  const doc = 'Title\n\nFirst block here.\n\nSecond block.';
  t.equal(applyEdits(doc, [{ after: 'First', text: 'New.' }]), 'Title\n\nFirst block here.\n\nNew.\n\nSecond block.');
  t.equal(applyEdits(doc, [{ append: 'Second', text: 'More.' }]), 'Title\n\nFirst block here.\n\nSecond block. More.');
  t.throws(() => applyEdits(doc, [{ after: 'block', text: 'x' }]), /found 2 times/);
  t.throws(() => applyEdits(doc, [{ after: 'absent', text: 'x' }]), /found 0 times/);
});

for (const half of HAND_HALVES)
  for (const set of HAND_SETS)
    for (const { topic, variants } of handFiles(half, set))
      t.test(`${half}${set}/${topic.id}: every variant written and applied`, async (t) => {
        t.same(Object.keys(variants).sort(), [...HAND_VARIANTS].sort(), 'every variant written');
        for (const v of HAND_VARIANTS) {
          const out = applyEdits(topic.strong, variants[v]!);
          for (const e of variants[v]!) t.ok(out.includes(e.text), `${v}: "${e.text.slice(0, 30)}…" added`);
        }
      });

t.test('tuning, corpus-a and corpus-c: gaming never raises CQS, evidence raises it', async (t) => {
  const rows = HAND_SETS.flatMap((set) => [...handRows('tuning', set), ...handRows('corpus-a', set)]);
  const c = handRows('corpus-c');
  for (const v of HAND_GAMING) t.equal(c.filter((r) => r.deltas[v]! > 0).length, 0, `corpus-c: ${v} never raises CQS`);
  for (const v of ['quotation', 'statistic', 'citation'] as const)
    t.ok(c.filter((r) => r.deltas[v]! > 0).length >= 0.85 * c.length, `corpus-c: ${v} raises CQS on 7 of 8 or more`);
  t.ok(rows.length >= 8, `${rows.length} articles`);
  t.ok(new Set(rows.map((r) => r.language)).size >= 2, 'more than one language');
  for (const v of HAND_VARIANTS) {
    const raised = rows.filter((r) => r.deltas[v]! > 0);
    const detail = rows.map((r) => `${r.id} ${r.deltas[v]} (${r.moved[v]})`).join('; ');
    if (HAND_GAMING.includes(v)) t.equal(raised.length, 0, `${v} never raises CQS: ${detail}`);
    else t.ok(raised.length >= 0.9 * rows.length, `${v} raises CQS on ≥ 90%: ${detail}`);
  }
});

/**
 * corpus-e to corpus-h (tuning sets, variants written at stop 38 for f and g, stop 40 for h):
 * stuffing and filler never raise CQS (filler that reads as ordinary prose on the page's own
 * vocabulary included: a generic paragraph earns no term and closes no gap, stop 42) and the
 * evidence variants raise it on 5 of 6 or more.
 */
for (const half of ['corpus-e', 'corpus-f', 'corpus-g', 'corpus-h'] as const)
  t.test(`${half}: gaming never raises CQS, evidence raises it`, async (t) => {
    const rows = handRows(half);
    t.ok(rows.length >= 6, `${rows.length} articles`);
    for (const v of HAND_GAMING) {
      const raised = rows.filter((r) => r.deltas[v]! > 0).map((r) => `${r.id} +${r.deltas[v]}`);
      t.same(raised, [], `${v} never raises CQS`);
    }
    for (const v of ['quotation', 'statistic', 'citation'] as const)
      t.ok(
        rows.filter((r) => r.deltas[v]! > 0).length >= 5,
        `${v}: ${rows.map((r) => `${r.id} ${r.deltas[v]}`).join('; ')}`,
      );
  });

/**
 * corpus-i (stop 44) adds stuffing as keyword stuffers write it: a sentence with the exact keyword
 * appended to every paragraph, and bold keyword lines. It raised CQS on two articles; the query's
 * own words no longer earn vocabulary credit by their rate, which fixed one. The other (Polish)
 * was the stemmer's fleeting e: the strong article writes "pędzla", the keyword "pędzel", so it had
 * no whole match and the added ones lifted density; the stemmer joins them since stop 45.
 */
t.test('corpus-i: gaming never raises CQS, evidence raises it', async (t) => {
  const rows = handRows('corpus-i');
  t.ok(rows.length >= 6, `${rows.length} articles`);
  const raised = (v: HandVariant) => rows.filter((r) => r.deltas[v]! > 0).map((r) => `${r.id} +${r.deltas[v]}`);
  t.same(raised('filler'), [], 'filler never raises CQS');
  t.same(raised('stuffing'), [], 'stuffing never raises CQS');
  for (const v of ['quotation', 'statistic', 'citation'] as const)
    t.ok(raised(v).length >= 5, `${v}: ${rows.map((r) => `${r.id} ${r.deltas[v]}`).join('; ')}`);
});

/**
 * The `-c` variants (stop 44): the exact keyword appended, uninflected, to the end of 11 paragraphs
 * of the long and local keywords' strong articles. At stop 44's base it raised CQS on 7 of 8; a
 * local query pasted as typed ("emergency plumber reading", "serwis klimatyzacji poznań") is
 * stuffing, and a long keyphrase's head noun names the subject. Since stop 45 a query pasted in
 * lower case where the page writes a word of it with a capital ("the perth bus strike" on a page
 * that says "Perth") is stuffing too.
 */
t.test('-c variants: the keyword appended to every paragraph never raises CQS', async (t) => {
  const rows = [...handRows('tuning', '-c'), ...handRows('corpus-a', '-c'), ...handRows('corpus-f', '-c')];
  t.ok(rows.length >= 8, `${rows.length} articles`);
  const raised = (v: HandVariant) => rows.filter((r) => r.deltas[v]! > 0).map((r) => `${r.id} +${r.deltas[v]}`);
  t.same(raised('filler'), [], 'filler never raises CQS');
  t.same(raised('stuffing'), [], 'stuffing never raises CQS');
});
