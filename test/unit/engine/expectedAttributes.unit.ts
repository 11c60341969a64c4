/**
 * Expected attributes are what the competitors say of the entity (issue 24, item 5: junk in the
 * EAV card): what a searcher wants ("best", "opinie", "Test") stands beside the entity on every page
 * of a commercial SERP and is no attribute of the thing. Pages written for this test.
 */
import t from 'tap';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { expectedAttributes } from '../../../services/engine/benchTargets.ts';

const an = createAnalyzer('en');
const page = (extra: string) =>
  prepareDocument({
    content: `# Best kettle\n\nThe best kettle has a steel body and boils a litre in three minutes. ${extra} A kettle with a steel body and a filter keeps limescale out of the cup.\n`,
    url: null,
    keyword: 'best kettle',
    language: 'en',
  }).doc;

t.test('intent words beside the entity are no attributes; what the pages say of it is', async (t) => {
  const basis = [
    'The kettle body stays cool.',
    'Our kettle review found the filter easy.',
    'A kettle lid opens wide.',
  ].map((x) => ({ doc: page(x) }));
  const stems = expectedAttributes(basis as never, [an.stem('kettle')], an).map((a) => a.surface);
  t.ok(stems.includes('steel'), `steel among ${stems.join(', ')}`);
  t.notOk(stems.includes('best'), 'not "best"');
  t.notOk(stems.includes('review'), 'not "review"');
});
