import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * The answer asked of a review's opening (blind reviews r18, r19: "which to choose" on a review of
 * one product should ask for the verdict). One named product gets the verdict; a kind of product,
 * or a keyword that asks for the best, gets the choice. Pages written for this test.
 */
const page = (title: string, name: string) =>
  [
    `# ${title}`,
    '',
    `In today's busy world, everyone wants a kitchen that simply works, and choosing well matters more than ever. ${name} is something many people talk about these days.`,
    '',
    `We used ${name} every morning for three weeks. It boiled 1.7 litres in four minutes and the lid never stuck.`,
    '',
    `The handle of ${name} stays cool, though the cable is short at 75 cm.`,
  ].join('\n');
const task = (content: string, keyword: string) =>
  auditContent({
    content,
    url: null,
    keyword,
    language: 'en',
    format: 'markdown',
    benchmark: null,
  }).recommendations.find((r) => r.title === 'Answer in the first sentence')?.task ?? '';

t.test('a review of one named product asks for the verdict', async (t) => {
  t.match(
    task(page('Brightwell Aria kettle review', 'the Brightwell Aria kettle'), 'brightwell aria review'),
    /verdict/,
  );
});

t.test('a kind of product, or the best of them, asks which to choose', async (t) => {
  t.match(task(page('Electric kettle review', 'an electric kettle'), 'electric kettle review'), /which to choose/);
  t.match(
    task(page('Best Brightwell kettle', 'the Brightwell Aria kettle'), 'best brightwell kettle'),
    /which to choose/,
  );
});
