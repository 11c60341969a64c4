/**
 * chunk's heading check (does the section's body pick up its heading's words?) judges a heading
 * that stands over its subsections only ("Step by step", then "1. …", "2. …") by those subsections:
 * its own body is empty by design, not off its heading. Made-up pages on painting a garden shed.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';

const steps = [
  [
    'Sand the boards',
    'Sand the boards with 120-grit paper until the old paint is dull and the grain feels smooth to the hand.',
  ],
  [
    'Prime the bare wood',
    'Prime the bare wood with an oil-based primer and let it dry for a full day before the next coat.',
  ],
  [
    'Paint two coats',
    'Paint two coats of exterior paint, four hours apart, brushing along the boards from top to bottom.',
  ],
];
const page = (container: string) =>
  [
    '# How to paint a garden shed',
    'To paint a garden shed, sand it, prime the bare wood and brush on two coats of exterior paint on a dry day.',
    container,
    ...steps.map(([h, b], i) => `### ${i + 1}. ${h}\n\n${b}`),
    '## What paint to buy',
    'Buy an exterior wood paint with a fungicide; a 2.5-litre tin covers a 6 × 4 ft shed twice.',
  ].join('\n\n');

const chunk = (content: string) =>
  scoreContent({
    content,
    format: 'markdown',
    title: null,
    url: null,
    keyword: 'paint a garden shed',
    language: 'en',
  }).outcomes.find((o) => o.id === 'chunk')!.score;

t.test('a heading over its subsections only is judged by them, not by its empty body', async (t) => {
  const nested = chunk(page('## Step-by-step method'));
  const flat = chunk(page(''));
  t.ok(nested >= flat, `with the container heading ${nested}, without it ${flat}`);
});

t.test(
  'a heading is matched by what it announces: not its bracketed examples or model numbers, and inflected',
  async (t) => {
    const withHeading = (heading: string) =>
      chunk(
        [
          '# How to paint a garden shed',
          'To paint a garden shed, sand it, prime the bare wood and brush on two coats of exterior paint on a dry day.',
          `## ${heading}`,
          'Brushes with synthetic bristles hold water-based paint well and leave fewer marks on rough boards.',
          '## What paint to buy',
          'Buy an exterior wood paint with a fungicide; a 2.5-litre tin covers a 6 × 4 ft shed twice.',
        ].join('\n\n'),
      );
    const plain = withHeading('Synthetic brush');
    t.equal(
      withHeading('Synthetic brush (e.g. Harris 1234, Purdy XL-2)'),
      plain,
      'the examples in brackets do not count',
    );
    const unrelated = withHeading('Choosing a ladder');
    t.ok(plain > unrelated, `a heading the body speaks to (${plain}) passes, one it does not (${unrelated}) fails`);
  },
);
