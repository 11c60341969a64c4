/**
 * bluf's section share is smoothed (issue 24, item 3): one section that answers first is weaker
 * evidence than nine of ten, so a page with a single subheading does not outscore a sectioned guide
 * on leading with answers. Texts written for this test.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';

const bluf = (content: string) =>
  scoreContent({ content, format: 'markdown', url: null, keyword: 'paint a radiator' }).outcomes.find(
    (o) => o.id === 'bluf',
  )!.score;

const intro =
  'To paint a radiator, turn it off, sand it, prime it and spray two thin coats of radiator enamel: 3 hours of work and 24 hours to dry.';
const section = (n: number, answers: boolean) =>
  `## Step ${n}: the ${['sanding', 'primer', 'enamel', 'drying', 'valves', 'brush', 'spray', 'masking', 'cleaning', 'checking'][n % 10]}\n\n` +
  (answers
    ? `Paint the radiator in step ${n} with a 40 mm brush, working from the top down in 10 minutes.`
    : `Many people wonder about this part, and there is a lot one could say about it in general.`) +
  ' Keep the room aired while the paint dries.';

t.test('one answering section of one does not beat nine of ten', async (t) => {
  const one = `# Paint a radiator\n\n${intro}\n\n${section(1, true)}\n`;
  const ten = `# Paint a radiator\n\n${intro}\n\n${Array.from({ length: 10 }, (_, i) => section(i + 1, i !== 4)).join('\n\n')}\n`;
  t.ok(bluf(ten) >= bluf(one), `ten sections, nine answering: ${bluf(ten)}; one of one: ${bluf(one)}`);
});
