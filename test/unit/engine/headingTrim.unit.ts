/**
 * Stuffed subheadings cut as a concrete change (issue 23: stuffing is offered as removals of the
 * named occurrences). Where the keyphrase is in over 75 % of the subheadings and one heading less
 * brings it into range, the last heading that attaches it by a preposition, or opens on it before a
 * colon, loses it; nothing is added, and what is left is the section's own topic. Made-up pages on
 * gutter cleaning.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

const KEYWORD = 'gutter cleaning';
const section = (heading: string, i: number) =>
  `## ${heading}\n\nWe clear ${i + 2} metres of gutter an hour from a ladder with a stand-off, bag the leaves and ` +
  `flush each downpipe with a hose so the water runs freely to the drain at ground level before we leave.`;
const page = (headings: string[]) =>
  `# Gutter cleaning in Bristol\n\nGutter cleaning costs £60 for a terraced house and £90 for a detached one, ` +
  `with photos before and after.\n\n${headings.map(section).join('\n\n')}`;
const trims = (headings: string[]) =>
  auditContent({ content: page(headings), url: null, keyword: KEYWORD, language: 'en', format: 'markdown' })
    .recommendations.filter((r) => /subheadings/.test(r.evidence?.rule ?? ''))
    .map((r) => `${r.before} → ${r.after}`);

t.test('the last heading that attaches the keyphrase by a preposition loses it', async (t) => {
  const five = ['Gutter cleaning prices', 'How gutter cleaning works', 'Gutter cleaning in winter', 'Our guarantee'];
  t.same(trims([...five.slice(0, 3), 'Ladders for gutter cleaning', 'Our guarantee']), [
    'Ladders for gutter cleaning → Ladders',
  ]);
});

t.test('a heading that opens on the keyphrase before a colon keeps what follows', async (t) => {
  t.same(
    trims(['Gutter cleaning: downpipe checks', 'Gutter cleaning prices', 'How gutter cleaning works', 'Our guarantee']),
    [],
    'three of four (75 %) is in range: nothing to cut',
  );
  t.same(
    trims([
      'Gutter cleaning prices',
      'How gutter cleaning works',
      'Gutter cleaning: downpipe checks',
      'Gutter cleaning costs',
    ]),
    ['Gutter cleaning: downpipe checks → Downpipe checks'],
  );
});

t.test('no cut where one heading less is not enough, or the keyphrase sits inside', async (t) => {
  t.same(
    trims([
      'Gutter cleaning prices',
      'Gutter cleaning costs',
      'Ladder safety in gutter cleaning',
      'Gutter cleaning FAQ',
    ]),
    ['Ladder safety in gutter cleaning → Ladder safety'],
    'four of four: one less is 75 %',
  );
  t.same(
    trims([
      'Gutter cleaning prices',
      'Gutter cleaning costs',
      'Gutter cleaning FAQ',
      'Ladder safety in gutter cleaning',
      'Gutter cleaning tools',
      'Gutter cleaning dates',
    ]),
    [],
    'six of six: one less is still 83 %',
  );
  t.same(
    trims([
      'Gutter cleaning prices',
      'Our gutter cleaning team',
      'Gutter cleaning costs',
      'When gutter cleaning pays',
      'Our guarantee',
    ]),
    [],
    'the keyphrase inside a heading is not cut',
  );
});
