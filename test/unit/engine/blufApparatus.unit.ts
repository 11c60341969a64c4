/**
 * Answer first is asked of sections that answer their heading: not the page's apparatus ("FAQ",
 * "Sources": their questions are their subsections') and not a heading that only stands over its
 * subsections ("Step by step", then "Step 1: …"). A strong how-to's report listed both as sections
 * that did not answer first. Made-up page.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

const page =
  '# How to oil a bike chain\n\nOil a bike chain every 300 km: wipe it, put one drop of oil on each roller and wipe off the rest after ten minutes.\n\n' +
  '## How to oil a bike chain: step by step\n\n' +
  '### Step 1: Wipe the chain\n\nWipe the chain with a dry rag while you turn the pedals backwards for about 30 seconds.\n\n' +
  '### Step 2: Oil each roller\n\nPut one drop of chain oil on each of the 116 rollers from the inside of the lower run.\n\n' +
  '## FAQ\n\n### How often should you oil a bike chain?\n\nEvery 300 km, and after every ride in the rain.\n\n' +
  '### Can you use cooking oil?\n\nNo: cooking oil gums up within weeks and collects grit.';

t.test('no answer-first problem for the FAQ heading or a heading over its steps', async (t) => {
  const r = auditContent({
    content: page,
    url: null,
    keyword: 'how to oil a bike chain',
    language: 'en',
    format: 'markdown',
  });
  const bluf = r.dimensions.find((d) => d.id === 'bluf')!;
  const under = bluf.problems.map((p) => p.title).filter((x) => /Answer first under/.test(x));
  t.same(
    under.filter((x) => /"FAQ"|step by step"/.test(x)),
    [],
    under.join('; '),
  );
});
