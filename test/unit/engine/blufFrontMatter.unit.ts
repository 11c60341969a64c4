/**
 * bluf judges the opening as the text the reader meets (issue 24, item 3): a byline or a date line
 * above it is about the article, so its figures are none the intro gives; and German names the
 * thing in a compound ("Gartenschlauch" is a "Schlauch"). Texts written for this test.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';

const introOf = (content: string, keyword: string) =>
  scoreContent({ content, format: 'markdown', url: null, keyword })
    .outcomes.find((o) => o.id === 'bluf')!
    .summary.match(/(?:Intro|Wstęp|Einleitung) (\d)\/4/u)?.[1];

t.test('a date line gives the intro no figure', async (t) => {
  const page = (dated: boolean) =>
    `# Best garden hose\n\n${dated ? 'Updated 3 March 2026\n\n' : ''}Gardeners argue about hoses every summer, and they rarely agree on anything at all.\n\n## Lengths\n\nMost gardens need a hose that reaches the far corner.\n`;
  t.equal(introOf(page(true), 'best garden hose'), introOf(page(false), 'best garden hose'));
});

t.test("a byline's figures are not the opening's", async (t) => {
  const page = (byline: string) =>
    `# Best garden hose\n\n${byline}Gardeners argue about hoses every summer, and they rarely agree on anything at all.\n\n## Lengths\n\nMost gardens need a hose that reaches the far corner.\n`;
  t.equal(
    introOf(page('By Ann Lindqvist, garden designer with 20 years of practice\n\n'), 'best garden hose'),
    introOf(page(''), 'best garden hose'),
  );
});

t.test('German: a compound whose last part is the thing names it in the opening', async (t) => {
  const page = (noun: string) =>
    `# Schlauch reparieren\n\nEin undichter ${noun} lässt sich in 10 Minuten mit einem Reparaturstück für 4 Euro wieder abdichten.\n\n## Werkzeug\n\nSie brauchen ein Messer.\n`;
  t.equal(introOf(page('Gartenschlauch'), 'Schlauch reparieren'), introOf(page('Schlauch'), 'Schlauch reparieren'));
});
