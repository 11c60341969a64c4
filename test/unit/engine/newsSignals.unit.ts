import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import { buildDoc, createAnalyzer, parseContent } from '../../../services/engine/document.ts';
import { narratesEvent, reportsEvent } from '../../../services/engine/newsSignals.ts';
import { recArticles } from '../../eval/recArticles.ts';

/**
 * News from general signals (blind review r7: evergreen PAA headings on a news item the profile did
 * not read as news): a date at the top, reporting verbs and a past-tense opening, measured on the
 * engine corpus's news articles; a dated report gets no question section whatever its profile.
 */

const docOf = (content: string, lang: string) =>
  buildDoc(parseContent(content, 'markdown', null), content, createAnalyzer(lang), null, null);

const REPORT = `# Leeds council opens a night library

Published 12/03/2025 by Anna Berg.

Leeds City Council opened a night reading room on Monday, the council announced. The room stayed open until 2 am on its first night and 140 readers came, a spokesperson said.

The council said it tested the idea in two branches last year. Staff reported no incidents during the trial, which ran for six weeks.`;

const HOWTO = `# How to descale a kettle

Published 12/03/2025 by Anna Berg.

Fill the kettle with equal parts water and white vinegar. Boil it, then leave it for an hour. Pour the mixture away and rinse the kettle twice with clean water. Experts said it works; the manual said so too.`;

t.test(
  'a dated report with reporting verbs and a past-tense opening reads as news; a dated how-to does not',
  async (t) => {
    t.ok(reportsEvent(docOf(REPORT, 'en')), 'the report');
    t.notOk(reportsEvent(docOf(HOWTO, 'en')), 'the how-to');
  },
);

t.test("the engine corpus's news articles are read as news, by their profile or these signals", async (t) => {
  const news = recArticles().filter((a) => a.name.includes('-news-'));
  t.ok(news.length >= 4, `${news.length} news articles`);
  for (const a of news) {
    const run = runAudit(a.input);
    t.ok(run.scored.profile === 'news' || reportsEvent(run.scored.doc), a.name);
  }
});

t.test('no question section on a page that reports an event', async (t) => {
  const wrong = recArticles().flatMap((a) => {
    const run = runAudit(a.input);
    if (!reportsEvent(run.scored.doc)) return [];
    return run.result.recommendations.filter((r) => r.evidence?.questions.length).map((r) => `${a.name} ${r.id}`);
  });
  t.same(wrong, []);
});

t.test('a byline task on a page read as news only where the page narrates an event (no explainer)', async (t) => {
  const wrong = recArticles().flatMap((a) => {
    const run = runAudit(a.input);
    if (run.scored.profile !== 'news' || narratesEvent(run.scored.doc)) return [];
    return run.result.recommendations
      .filter((r) => r.evidence?.rule.startsWith('eeat'))
      .map((r) => `${a.name} ${r.id}`);
  });
  t.same(wrong, []);
});
