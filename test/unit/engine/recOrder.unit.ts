import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import { buildSummary } from '../../../services/engine/summary.ts';
import { recArticles } from '../../eval/recArticles.ts';

/**
 * The order an editor reads (docs/scoring.md, Priority): by priority, the page's own defects
 * (answer-first, keyword density) before what it lacks, then by the gain shown; the
 * summary's top change and quick wins point into the result in its own order. The fix of what caps
 * the score is never a "bonus" beside a heading with nothing under it ranked "critical". Over the
 * engine fixtures, the tuning half and corpus-a.
 */

const RANK = { critical: 0, high: 1, medium: 2, bonus: 3 } as const;
const audits = recArticles().map((a) => ({ a, run: runAudit(a.input) }));

const defect = (r: { dimension: string }) => Number(r.dimension === 'bluf' || r.dimension === 'density');

t.test('by priority, the defects first, then by the gain shown', async (t) => {
  const wrong: string[] = [];
  let ahead = 0;
  for (const { a, run } of audits) {
    const recs = run.result.recommendations;
    for (let i = 1; i < recs.length; i++) {
      const p = recs[i - 1]!;
      const q = recs[i]!;
      if (RANK[p.priority] === RANK[q.priority] && defect(p) > defect(q)) ahead++;
      const ok =
        RANK[p.priority] < RANK[q.priority] ||
        (RANK[p.priority] === RANK[q.priority] && defect(p) > defect(q)) ||
        (RANK[p.priority] === RANK[q.priority] &&
          defect(p) === defect(q) &&
          p.estimatedCqsDelta >= q.estimatedCqsDelta);
      if (!ok)
        wrong.push(
          `${a.name}: ${p.id} ${p.priority} +${p.estimatedCqsDelta} before ${q.id} ${q.priority} +${q.estimatedCqsDelta}`,
        );
    }
  }
  t.same(wrong, []);
  t.ok(ahead > 0, `a defect ahead of an addition of its priority on ${ahead} pairs`);
});

t.test('the summary follows the result: top change is rec:1, quick wins in the result order', async (t) => {
  for (const { a, run } of audits) {
    const r = run.result;
    const s = r.summary!;
    t.equal(s.topChange?.id ?? null, r.recommendations[0]?.id ?? null, `${a.name}: top change`);
    const at = s.quickWins.map((q) => r.recommendations.findIndex((x) => x.id === q.id));
    t.ok(
      at.every((i) => i >= 0),
      `${a.name}: quick wins are recommendations`,
    );
    t.same(
      at,
      [...at].sort((x, y) => x - y),
      `${a.name}: quick wins ${s.quickWins.map((q) => q.id).join(',')}`,
    );
  }
});

t.test('a task on what caps the score ranks critical; a section still to be written never does', async (t) => {
  const wrong: string[] = [];
  let capped = 0;
  for (const { a, run } of audits) {
    const gated = new Set(run.scored.outcomes.filter((o) => o.cap !== null).map((o) => o.id));
    for (const r of run.result.recommendations) {
      if (!r.authorDataOnly) continue;
      if (r.insertAt && r.priority === 'critical') wrong.push(`${a.name} ${r.id}: an empty section ranked critical`);
      if (r.before && r.before === r.after && gated.has(r.dimension)) {
        capped++;
        if (r.priority !== 'critical')
          wrong.push(`${a.name} ${r.id}: "${r.title}" is ${r.priority} on a capped ${r.dimension}`);
      }
    }
  }
  t.ok(capped >= 5, `${capped} tasks on a capped dimension`);
  t.same(wrong, []);
});

t.test('quick wins keep the result order: a gate lift of +0.4 stays above the +3 it outranks', async (t) => {
  const rec = (id: string, priority: 'critical' | 'high', delta: number) => ({
    id,
    priority,
    title: id,
    dimension: 'density' as const,
    actionType: 'remove' as const,
    section: '',
    before: `sentence ${id}`,
    after: '',
    insertAt: null,
    impact: '',
    estimatedCqsDelta: delta,
    authorDataOnly: false,
    competitorUrls: [],
  });
  const s = buildSummary(
    50,
    [rec('rec:1', 'critical', 0.4), rec('rec:2', 'high', 3)],
    { critical: 1, high: 1, total: 2 },
    'article',
    'en',
    null,
  );
  t.same(
    s.quickWins.map((q) => q.id),
    ['rec:1', 'rec:2'],
  );
  t.equal(s.topChange?.id, 'rec:1');
});

t.test(
  'stuffing in the title or in three sentences or more is the page’s defect: high, ahead of every question to research',
  async (t) => {
    // Blind review r31: the query pasted into eight sentences, and the phrase spread through a shop
    // page, each ranked "medium" below a question section; both reviewers put the stuffing first.
    // r32: a title saying the keyword two or three times, ranked medium.
    let seen = 0;
    for (const { a, run } of audits) {
      const recs = run.result.recommendations;
      const findings = run.scored.outcomes.flatMap((o) => o.findings);
      for (const r of recs) {
        const f = findings.find(
          (x) => x.title === r.title && (x.kind === 'stuffingVerbatim' || x.kind === 'stuffingRewrite'),
        );
        if (!f?.pageWide) continue;
        seen++;
        t.ok(RANK[r.priority] <= RANK.high, `${a.name}: ${r.title} is ${r.priority}`);
        const i = recs.indexOf(r);
        const later = recs.slice(0, i).filter((x) => x.dimension === 'queryFanout');
        t.same(
          later.map((x) => x.title),
          [],
          `${a.name}: no question section before it`,
        );
      }
    }
    t.ok(seen > 0, `page-wide stuffing tasks on ${seen} pages`);
  },
);
