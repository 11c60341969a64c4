/**
 * The rewrite measured on the engine corpus: for each weak article, apply every selectable item
 * and re-score with the engine (no benchmark, as the offline audits). Prints one row per article.
 * `npx tsx bench/applyCorpus.ts`
 */
import { planItems } from '../services/apply/items.ts';
import { rewrite } from '../services/apply/rewrite.ts';
import { toMarkdown } from '../services/apply/sourceMarkdown.ts';
import { auditContent } from '../services/engine/audit.ts';
import { articles, read } from '../test/fixtures/engine/corpus.ts';

let raised = 0;
let lowered = 0;
for (const a of articles) {
  const content = read('weak', a);
  const format = a.file.endsWith('.html') ? 'html' : 'text';
  const before = auditContent({ content, url: null, keyword: a.keyword, language: a.language });
  const markdown = toMarkdown(content, format);
  const items = planItems({ markdown, language: a.language, keyword: a.keyword, recommendations: before.recommendations, paa: [], title: /^#\s+(.+)$/m.exec(markdown)?.[1] ?? null });
  const selectable = items.filter((p) => p.item.selectable).map((p) => p.item.id);
  const r = rewrite(markdown, items, selectable);
  const base = auditContent({ content: markdown, format: 'markdown', url: null, keyword: a.keyword, language: a.language }).scores.cqs ?? 0;
  const after = auditContent({ content: r.markdown, format: 'markdown', title: r.title, url: null, keyword: a.keyword, language: a.language }).scores.cqs ?? 0;
  if (after > base) raised++;
  if (after < base) lowered++;
  console.log(`| ${a.id} | ${before.scores.cqs} | ${base} | ${after} | ${selectable.length} | ${r.appliedIds.length} | ${r.skipped.length} |`);
}
console.log(`raised ${raised}/${articles.length}, lowered ${lowered}`);
