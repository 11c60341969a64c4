import { planItems } from '../services/apply/items.ts';
import { rewrite } from '../services/apply/rewrite.ts';
import { auditContent } from '../services/engine/audit.ts';
import { loadTopic } from '../test/eval/corpus.ts';
const [half, id] = process.argv.slice(2) as ['tuning', string];
const tp = loadTopic(half, id);
const before = auditContent({
  content: tp.poor,
  url: null,
  keyword: tp.keyword,
  language: tp.language,
  benchmark: tp.serp,
});
const markdown = tp.poor;
const items = planItems({
  markdown,
  language: tp.language,
  keyword: tp.keyword,
  recommendations: before.recommendations,
  paa: before.benchmark?.paa ?? [],
  title: /^#\s+(.+)$/m.exec(markdown)?.[1] ?? null,
});
const sc = (md: string, title: string | null = null) =>
  auditContent({
    content: md,
    format: 'markdown',
    title,
    url: null,
    keyword: tp.keyword,
    language: tp.language,
    benchmark: tp.serp,
  }).scores.cqs;
console.log('base', sc(markdown), before.dimensions.map((d) => d.id + ':' + d.score).join(' '));
for (const p of items) {
  const r = rewrite(markdown, items, [p.item.id]);
  const i = p.item;
  console.log(
    `${i.id} sel=${i.selectable} ado=${i.authorDataOnly} ed=${i.editorialOnly} nc=${i.noChange} edit=${p.edit?.kind} ${i.actionType} | ${i.label.slice(0, 80)} | B:${JSON.stringify(i.before.slice(0, 100))} | A:${JSON.stringify(i.after.slice(0, 160))} | score=${r.appliedIds.length ? sc(r.markdown, r.title) : 'skip:' + r.skipped.map((s) => s.reason)}`,
  );
}
