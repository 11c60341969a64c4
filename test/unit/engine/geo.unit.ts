import t from 'tap';
import { EVIDENCE, GAMING, geoRows } from '../../eval/geo.ts';

/**
 * No reward for gaming (issue 24, item 2), over every strong article of the tuning corpora and
 * corpus-a: 12 more uses of the exact keyword (in sentences, or in keyword-filled subheadings and
 * bold lines) and four paragraphs of generic filler never raise CQS; a named quotation, a
 * statistic with its unit and source, and a cited source raise it on at least 90% of the articles
 * and never lower it by as much as 0.75 (the words they add dilute rates a little).
 */

const rows = geoRows();

t.test('the corpora are there', async (t) => {
  t.ok(rows.length >= 24, `${rows.length} strong articles`);
});

for (const v of GAMING) {
  t.test(`${v} never raises CQS`, async (t) => {
    const up = rows.filter((r) => r.deltas[v] > 0).map((r) => `${r.id} +${r.deltas[v]} (${r.dims[v]})`);
    t.same(up, [], `${v}: ${rows.length - up.length}/${rows.length} not raised`);
  });
}

for (const v of EVIDENCE) {
  t.test(`${v} raises CQS on at least 90% of the strong articles`, async (t) => {
    const raised = rows.filter((r) => r.deltas[v] > 0).length;
    t.ok(raised / rows.length >= 0.9, `${v}: raised on ${raised}/${rows.length}`);
    const lowered = rows.filter((r) => r.deltas[v] <= -0.75).map((r) => `${r.id} ${r.deltas[v]} (${r.dims[v]})`);
    t.same(lowered, [], `${v}: never lowered`);
  });
}
