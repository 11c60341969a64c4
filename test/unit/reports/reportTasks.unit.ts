import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import { toAuditResultV1 } from '../../../services/engine/resultV1.ts';
import { escape } from 'html-escaper';
import { clientText, passageText } from '../../../services/reports/clientText.ts';
import { anchorText, reportPage } from '../../../services/reports/reportPage.ts';
import { shareLangOf } from '../../../services/share/links.ts';
import { sampleResultMeta } from '../../helpers/resultMeta.ts';
import { recArticles } from '../../eval/recArticles.ts';

/**
 * An author task in the report says what to write, where and why; it never shows an AFTER equal
 * to its BEFORE as if that were a change (an editor read "Say the keyword once in this sentence"
 * with the same sentence on both sides). Every report of the engine fixtures, the tuning half and
 * corpus-a with an author task.
 */

// As the page escapes it; the task is compared as the client reads it (quotations cut at a word).
const esc = (s: string) => escape(passageText(s));
const shown = (s: string) => escape(clientText(s));
const cards = (page: string) => [...page.matchAll(/<article class="rec[^"]*" id="(rec-\d+)">([\s\S]*?)<\/article>/g)];

const reports = recArticles()
  .map((a) => ({ a, r: runAudit(a.input).result }))
  .filter(({ r }) => r.recommendations.some((x) => x.authorDataOnly))
  .map(({ a, r }) => {
    const v1 = toAuditResultV1(r, {
      id: '00000000-0000-4000-8000-000000000001',
      createdAt: '2026-11-26T10:00:00.000Z',
      completedAt: '2026-11-26T10:00:05.000Z',
      project: null,
      meta: sampleResultMeta(),
    });
    return { a, r, page: reportPage(v1, { lang: shareLangOf(r.input.language) }) };
  });

t.test('there are reports with author tasks, in English and Polish', async (t) => {
  t.ok(reports.length >= 10, `${reports.length} reports`);
  t.ok(reports.some(({ r }) => r.input.language === 'pl'));
});

t.test('a task card shows the task and the place once, and no AFTER', async (t) => {
  const wrong: string[] = [];
  for (const { a, r, page } of reports) {
    const byId = new Map(cards(page).map((m) => [m[1]!, m[2]!]));
    for (const rec of r.recommendations.filter((x) => x.authorDataOnly)) {
      const card = byId.get(rec.id.replace(':', '-')) ?? '';
      const name = `${a.name} ${rec.id}`;
      if (!rec.task || !card.includes(shown(rec.task))) wrong.push(`${name}: the task is not shown`);
      if (/<p class="tag">(?:After|Po)<\/p>/u.test(card)) wrong.push(`${name}: an AFTER column on a task`);
      if (rec.before && card.split(esc(rec.before)).length - 1 !== 1)
        wrong.push(`${name}: the sentence is not quoted once`);
      if (rec.insertAt?.anchor && !card.includes(escape(anchorText(rec.insertAt.anchor, rec.insertAt.placement))))
        wrong.push(`${name}: no anchor`);
      if (!/<p class="why">/u.test(card)) wrong.push(`${name}: no reason`);
      // The dimension is named on the card; its id is no word a client reads.
      if (new RegExp(`<strong>[^<]*</strong>\\s*${rec.dimension}:`, 'u').test(card))
        wrong.push(`${name}: the reason opens with the id "${rec.dimension}:"`);
    }
  }
  t.same(wrong, []);
});

t.test('a long anchor is shown by the end that touches the insertion', async (t) => {
  const wall = `${'Heating has been relied upon for a long time. '.repeat(12)}Bleeding lets the trapped air out.`;
  const after = anchorText(wall, 'after');
  t.ok(after.endsWith('Bleeding lets the trapped air out.'), 'after: its last words');
  t.ok(after.startsWith('…') && after.length <= 242, 'marked as cut');
  t.ok(wall.endsWith(after.slice(1)), 'verbatim, cut at a word');
  const before = anchorText(wall, 'before');
  t.ok(before.startsWith('Heating has been') && before.endsWith('…'), 'before: its first words');
  t.equal(anchorText('## Final Thoughts', 'before'), '## Final Thoughts', 'a short anchor whole');
});
