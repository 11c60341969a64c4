import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * A heading is on the topic when it names the page's main terms or the SERP's (issue 24, a report
 * that reads right): "Crop factor" on a camera-sensor page is the topic, and an FAQ heading is the
 * page's apparatus. Made-up pages and SERP.
 */
const filler = (n: number, words: string) => Array.from({ length: n }, () => words).join(' ');
const article = [
  '# What is an image sensor?',
  '',
  'An image sensor is the chip in a camera that turns light into a picture; a full-frame one measures 36 × 24 mm.',
  '',
  '## Crop factor explained',
  '',
  `A smaller chip narrows the view by 1.5 times. ${filler(6, 'The sensor size sets the light each pixel gets.')}`,
  '',
  '## Frequently asked questions',
  '',
  `Does a bigger sensor mean better photos? Mostly yes: it gathers more light. ${filler(4, 'The image sensor decides noise at high ISO.')}`,
].join('\n');
const competitor = (i: number) => ({
  url: `https://example.org/sensor-${i}`,
  title: `Image sensor guide ${i}`,
  text: `# Image sensors explained\n\n${filler(12, 'The crop factor of a sensor compares its size with full frame, and the crop factor narrows the view.')}`,
});
const offTopic = (benchmark: boolean) =>
  auditContent({
    content: article,
    format: 'markdown',
    url: null,
    keyword: 'what is an image sensor',
    language: 'en',
    benchmark: benchmark
      ? {
          searchVolume: 100,
          serpOrganicCount: 10,
          paa: [],
          related: [],
          competitors: [competitor(1), competitor(2), competitor(3)],
        }
      : null,
  })
    .dimensions.find((d) => d.id === 'csiAlignment')!
    .problems.map((p) => p.title);

t.test('a heading in the SERP’s terms is on the topic; an FAQ heading is apparatus', async (t) => {
  const withSerp = offTopic(true);
  t.notOk(
    withSerp.some((x) => x.includes('Crop factor')),
    'the SERP vouches for "Crop factor"',
  );
  t.notOk(
    [...withSerp, ...offTopic(false)].some((x) => x.includes('Frequently asked questions')),
    'an FAQ needs no topic word',
  );
});
