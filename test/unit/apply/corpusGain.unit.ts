import t from 'tap';
import { gainTable, measureGain, weakArticles } from '../../eval/applyGain.ts';

/**
 * Issue 13's must-show: applying all selectable items of each weak article (the engine fixtures and
 * the evaluation corpus's poor versions, both halves) raises its measured CQS on at least 90% of
 * articles and lowers it on none. The table is the one in docs/apply.md (`npx tsx bench/applyCorpus.ts`).
 *
 * No article lower is enforced. At least 90% raised held (33 of 36 on 2026-11-23) while the engine
 * offered changes an editor rejects (keyword headings, slots, unguarded reorders); since issue 23
 * removed them (precision before recall), fewer weak articles get a pasteable change, and the 90%
 * is an open target of issue 23, shown as TODO with its figure until safe edits bring it back.
 */
const RAISED_TARGET = 0.9;
t.test('the rewrite raises the measured CQS of the weak articles', async (t) => {
  const rows = weakArticles().map(measureGain);
  t.ok(rows.length >= 36, `${rows.length} weak articles`);
  t.comment(gainTable(rows));
  for (const r of rows) t.ok(r.after >= r.before, `${r.corpus}/${r.id}: ${r.before} → ${r.after}, never lower`);
  const raised = rows.filter((r) => r.after > r.before);
  t.ok(
    raised.length >= Math.ceil(rows.length * RAISED_TARGET),
    `raised on ${raised.length}/${rows.length}, at least 90% wanted (flat: ${rows
      .filter((r) => r.after === r.before)
      .map((r) => r.id)
      .join(', ')})`,
    { todo: 'issue 23: open since the rejected kinds of change were removed' },
  );
});
