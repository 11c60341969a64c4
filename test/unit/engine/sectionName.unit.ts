/**
 * Where a change goes, named for the writer (blind review r15: a sentence of the closing paragraph
 * of a page without subheadings was labelled "Einleitung"): before the first subheading is the
 * introduction; a page without subheadings is one section, its text. Made-up pages.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';

const paras = [
  'To paint a garden shed, sand the boards, prime the bare wood and brush on two coats of exterior paint on a dry day between 10 and 25 °C.',
  'Sand the boards with 120-grit paper until the old paint is dull. Prime the bare wood with an oil-based primer and let it dry for a full day.',
  'In the end the paint costs quite a lot, and the job takes a long time, but the shed looks much better afterwards for many years.',
];
const vagueSection = (content: string, language: string) =>
  scoreContent({ content, format: 'markdown', title: null, url: null, keyword: 'paint a garden shed', language })
    .outcomes.flatMap((o) => o.findings)
    .find((f) => f.kind === 'vague')?.section;

t.test('a page without subheadings: a change is in the article text, not its introduction', async (t) => {
  t.equal(vagueSection(['# How to paint a garden shed', ...paras].join('\n\n'), 'en'), 'Article text');
});

t.test('with subheadings, the text before the first one is the introduction', async (t) => {
  const page = ['# How to paint a garden shed', paras[2], '## Sanding and priming', paras[1], '## Painting', paras[0]];
  t.equal(vagueSection(page.join('\n\n'), 'en'), 'Introduction');
});
