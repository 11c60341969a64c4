import t from 'tap';
import { rewrite } from '../../../services/apply/rewrite.ts';
import { applyChange } from '../../../services/engine/apply.ts';
import type { Change } from '../../../services/engine/types.ts';
import { applySources, auditForApply } from '../../eval/applyArticles.ts';

/**
 * Issue 23, one id for one recommendation: every id the audit result names (its recommendations,
 * summary.topChange, summary.quickWins) is the id of an apply item carrying that recommendation's
 * BEFORE and AFTER, and applying that id applies that recommendation and nothing else.
 */
t.test('every id of a result walks through the items and the rewrite to the same recommendation', async (t) => {
  const sources = applySources();
  t.ok(sources.length >= 24, `${sources.length} articles`);
  let walked = 0;
  for (const s of sources) {
    const a = auditForApply(s);
    const recs = a.result.recommendations;
    const byId = new Map(a.items.map((p) => [p.item.id, p]));
    t.equal(byId.size, a.items.length, `${a.name}: item ids are unique`);
    const ids = [
      ...recs.map((r) => r.id),
      ...(a.result.summary?.topChange ? [a.result.summary.topChange.id] : []),
      ...(a.result.summary?.quickWins ?? []).map((q) => q.id),
    ];
    t.equal(new Set(recs.map((r) => r.id)).size, recs.length, `${a.name}: recommendation ids are unique`);
    for (const id of ids) {
      const rec = recs.find((r) => r.id === id);
      const planned = byId.get(id);
      if (!rec || !planned) {
        t.fail(`${a.name}: ${id} is ${rec ? 'not an item' : 'not a recommendation of the result'}`);
        continue;
      }
      t.match(
        planned.item,
        { group: 'recommendation', label: rec.title, before: rec.before, after: rec.after },
        `${a.name}: ${id}`,
      );
      const rw = rewrite(a.markdown, a.items, [id]);
      if (!planned.item.selectable) {
        // An author task's id applies nothing (POST apply refuses it), never another item.
        t.same([rw.appliedIds, rw.markdown], [[], a.markdown], `${a.name}: ${id}, an author task, applies nothing`);
        continue;
      }
      // A BEFORE quoted from an HTML page may not survive the conversion to Markdown: then it is
      // skipped as not found, never replaced by another item.
      if (rw.appliedIds.length === 0) {
        t.match(rw.skipped, [{ id, reason: 'not_found' }], `${a.name}: ${id} skipped only as not found`);
        continue;
      }
      walked++;
      t.same(rw.appliedIds, [id], `${a.name}: ${id} applies itself only`);
      t.match(
        rw.applied,
        [{ id, before: rec.before, after: rec.after }],
        `${a.name}: ${id} applies its own BEFORE/AFTER`,
      );
      // The text is the original with exactly this change, as a writer would make it by hand.
      const change: Change = rec.insertAt
        ? { kind: 'insert', placement: rec.insertAt.placement, anchor: rec.insertAt.anchor, after: rec.after }
        : { kind: 'replace', before: rec.before, after: rec.after };
      t.equal(
        rw.markdown.trimEnd(),
        applyChange(a.markdown, 'markdown', change).trimEnd(),
        `${a.name}: ${id}'s change and nothing else is in the text`,
      );
    }
  }
  t.ok(walked >= 10, `${walked} recommendations applied by their id`);
});
