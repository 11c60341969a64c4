import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * A table of contents is the headings again (issue 24: no reward for what costs a writer nothing).
 * Read as a list it counted the headings' keyphrases twice, passed as "own media", as structure,
 * as attribute-value pairs, and its in-page links as internal links: the apply corpus's table of
 * contents alone took a listicle from 69 to 82. Now a page with one scores as the page without it.
 * Made-up pages, in Markdown and in HTML.
 */
const sections = [
  [
    'Why a saddle height matters',
    'A saddle set too low bends the knee past 40 degrees and strains the tendon below the kneecap.',
  ],
  [
    'How to measure saddle height',
    'Stand barefoot against a wall and measure from the floor to the crotch; multiply by 0.883.',
  ],
  [
    'How to set saddle height',
    'Loosen the seat post clamp, move the post to the measured height and tighten it to 5 Nm.',
  ],
  [
    'How to check saddle height on a ride',
    'At the bottom of the stroke the knee should stay bent by 25 to 35 degrees.',
  ],
] as const;
const anchor = (h: string) => h.toLowerCase().replace(/\s+/g, '-');
const intro = 'Saddle height decides how much power reaches the pedals and how your knees feel after a ride.';

const markdown = (toc: boolean) =>
  [
    '# Saddle height: how to set it',
    '',
    intro,
    '',
    ...(toc ? ['**Contents**', '', ...sections.map(([h]) => `- [${h}](#${anchor(h)})`), ''] : []),
    ...sections.flatMap(([h, p]) => [`## ${h}`, '', p, '']),
  ].join('\n');

const html = (toc: boolean) =>
  [
    '<html><head><title>Saddle height: how to set it</title></head><body><article>',
    '<h1>Saddle height: how to set it</h1>',
    `<p>${intro}</p>`,
    ...(toc ? [`<ul>${sections.map(([h]) => `<li><a href="#${anchor(h)}">${h}</a></li>`).join('')}</ul>`] : []),
    ...sections.map(([h, p]) => `<h2 id="${anchor(h)}">${h}</h2><p>${p}</p>`),
    '</article></body></html>',
  ].join('\n');

const scores = (content: string, format: 'markdown' | 'html') => {
  const r = auditContent({ content, url: null, keyword: 'saddle height', language: 'en', format, benchmark: null });
  return { cqs: r.scores.cqs, dimensions: r.dimensions.map((d) => [d.id, d.score]), eeat: r.eeat };
};

t.test('a Markdown table of contents neither raises nor lowers any score', async (t) => {
  t.not(markdown(true), markdown(false));
  t.same(scores(markdown(true), 'markdown'), scores(markdown(false), 'markdown'));
});

t.test('an HTML table of contents neither raises nor lowers any score', async (t) => {
  t.same(scores(html(true), 'html'), scores(html(false), 'html'));
});

t.test('a list that says something besides its links is still read as a list', async (t) => {
  const described = markdown(false).replace(
    '## Why',
    [
      '- [Measure](#how-to-measure-saddle-height) the inseam against a wall with a book between your legs',
      '- [Set](#how-to-set-saddle-height) the post to 0.883 times that length and tighten the clamp to 5 Nm',
      '',
      '## Why',
    ].join('\n'),
  );
  t.notSame(scores(described, 'markdown'), scores(markdown(false), 'markdown'));
});
