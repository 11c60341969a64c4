import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * A section that answers a People Also Ask question goes after the section that already speaks of
 * what it asks (issue 23, blind review r22: a solvent question belongs with the oil-paint section,
 * not before the summary); a question the page says nothing about goes where new sections go,
 * before the conclusion. Made-up how-to on cleaning a paint roller.
 */
const article = [
  '# How to clean a paint roller',
  '',
  'To clean a paint roller, scrape the paint back into the tin, rinse the sleeve under warm water for two minutes and spin it dry.',
  '',
  '## Water-based paint',
  '',
  'Emulsion comes out with warm water and a drop of washing-up liquid. Squeeze the sleeve until the water runs clear, about three rinses. A bucket with a grid saves the floor, and a second bucket of clean water makes the last rinse quicker.',
  '',
  '## Oil-based paint',
  '',
  'Oil paint needs white spirit: work 200 ml into the sleeve in a tray, then wash the spirit out with soapy water. Wear gloves and keep the window open. A mohair sleeve takes less spirit than a deep-pile one, and a foam sleeve is cheaper to replace than to clean.',
  '',
  '## Storing the roller',
  '',
  'Stand the clean sleeve on its end so the pile does not flatten, and keep it in a paper bag for the next job. Between coats on the same day, wrap the wet roller in cling film instead of washing it.',
  '',
  '## Summary',
  '',
  'Scrape, rinse, spin and store: the sleeve will last for ten jobs or more.',
].join('\n');

const places = () =>
  auditContent({
    content: article,
    format: 'markdown',
    url: null,
    keyword: 'how to clean a paint roller',
    language: 'en',
    benchmark: {
      searchVolume: 100,
      serpOrganicCount: 10,
      paa: ['How do you dispose of used white spirit safely?', 'Should you throw a sleeve away after varnish?'],
      related: [],
      competitors: [],
    },
  })
    .dimensions.find((d) => d.id === 'queryFanout')!
    .problems.map((p) => `${p.title} | ${p.section}`);

t.test('a question goes after the section that speaks of it, else before the conclusion', async (t) => {
  const got = places();
  t.ok(
    got.includes('Answer "How do you dispose of used white spirit safely?" | New section before "Storing the roller"'),
    got.join('\n'),
  );
  t.ok(
    got.includes('Answer "Should you throw a sleeve away after varnish?" | New section before "Summary"'),
    got.join('\n'),
  );
});
