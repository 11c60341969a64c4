import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { reportsEvent } from '../../../services/engine/newsSignals.ts';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';

/**
 * A news query (blind reviews r9, r10: a news item asked for an evergreen question section and for
 * a definition). A report is read from its lead, not only its first sentence; a query is news when
 * its results report the event, whatever the audited page reads as. Made-up pages.
 */
const docOf = (content: string, language: 'en' | 'pl' = 'en') =>
  prepareDocument({ content, url: null, keyword: 'museum ticket prices', language }).doc;

const report = (who: string, lead: string) =>
  [
    `# Museum raises ticket prices`,
    `${who}, City Courier`,
    `Updated 26 November 2026`,
    lead,
    'The director says the increase covers energy and conservation costs. A spokesperson says the garden stays free.',
    'Visitors tell the paper they expect a smaller rise. The board plans a review after one year.',
  ].join('\n\n');

t.test('the lead is the first paragraph of prose: the day named in its second sentence counts', async (t) => {
  const present =
    'The city museum raises the price of its main ticket from 40 to 52 euros. The new prices apply from 2 January, the first change in three years.';
  t.ok(reportsEvent(docOf(report('Anna Berg', present))), 'a present-tense lead that dates the change');
  const undated = 'The city museum raises the price of its main ticket from 40 to 52 euros. Its shop stays open late.';
  t.notOk(reportsEvent(docOf(report('Anna Berg', undated))), 'no day, a present-tense opening: not read as a report');
});

t.test('a dateline ("HARWICK —") dates a report as a publication line does', async (t) => {
  const page = [
    '# Museum raises ticket prices',
    'By Tom Reed',
    'HARWICK — The city museum raised the price of its main ticket on Monday after a vote of the board. The director said costs had risen.',
    'A spokesperson confirmed the garden stays free, and visitors said they were surprised.',
  ].join('\n\n');
  t.ok(reportsEvent(docOf(page)));
});

const thin = [
  '# Museum ticket prices: everything you need to know',
  'In today’s world, many people like to visit museums in their free time and learn new things.',
  'Museums are important places for culture, and a visit can be a lot of fun for the whole family.',
  'It is always a good idea to check the prices before you go, because nobody likes surprises.',
].join('\n\n');

const serpOf = (pages: string[]): SerpBenchmarkInput => ({
  searchVolume: 1000,
  serpOrganicCount: 10,
  paa: ['Can a museum ticket be refunded after a cancelled booking?'],
  related: [],
  competitors: pages.map((text, i) => ({ url: `http://127.0.0.1:9/r${i}.html`, title: `Result ${i}`, text })),
});

const evergreen = (n: number) =>
  [
    `# A guide to museum tickets ${n}`,
    'A museum ticket for students costs less than a full ticket, usually half the price with a valid card.',
    'The museum garden is free to enter for everyone during opening hours, and guided tours cost extra.',
    'A museum ticket is refunded in full after a cancelled booking made a day ahead, and half of it later.',
  ].join('\n\n');

const dated = (n: number) =>
  report(
    `Reporter ${n}`,
    'The city museum raises the price of its main ticket from 40 to 52 euros. The new prices apply from 2 January, the first change in three years. A museum ticket is refunded in full after a cancelled booking.',
  );

const opening = (r: { authorDataOnly?: boolean; before?: string }) =>
  Boolean(r.authorDataOnly && r.before && thin.indexOf(r.before) >= 0 && thin.indexOf(r.before) < 120);

t.test(
  'where two results report the event, a thin page gets no question section and no answer-first task',
  async (t) => {
    const run = (pages: string[]) =>
      auditContent({
        content: thin,
        url: null,
        keyword: 'museum ticket prices',
        language: 'en',
        benchmark: serpOf(pages),
      }).recommendations;
    const news = run([dated(1), dated(2), evergreen(3)]);
    t.notOk(
      news.some((r) => r.after?.startsWith('## ')),
      'no new question heading on a news query',
    );
    t.notOk(news.some(opening), 'no answer-first task at the opening');
    t.ok(run([evergreen(1), evergreen(2), evergreen(3)]).some(opening), 'the same page on an evergreen query gets it');
  },
);
