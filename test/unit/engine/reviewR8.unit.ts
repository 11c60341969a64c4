import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';

/**
 * Blind review r8's rejects (issue 23), each on a text written for the test (no corpus article):
 * the rule that made the reject, with the case it must now refuse and the case it must still serve.
 */

const serp = (paa: string[], texts: string[]): SerpBenchmarkInput => ({
  searchVolume: 1000,
  serpOrganicCount: texts.length,
  paa,
  related: [],
  competitors: texts.map((text, i) => ({ url: `https://site${i}.example/page`, title: `Page ${i}`, text })),
});

const FUEL_Q = 'What is the fuel consumption of the Kestrel hatchback?';
const comps = [0, 1, 2].map(
  (i) =>
    `# Kestrel hatchback review ${i}\n\nThe Kestrel hatchback is a small five-door car with a 1.2-litre engine.\n\n## Fuel consumption\n\nThe Kestrel hatchback uses ${5 + i}.1 litres per 100 km in mixed driving, and ${6 + i}.0 on the motorway.\n\n## Boot\n\nThe boot holds 3${i}0 litres with the seats up.`,
);
const review = (fuel: string) =>
  [
    '# Kestrel hatchback review',
    'The Kestrel hatchback is a small car that many people are thinking about buying these days, and it looks nice enough on the road.',
    `The seats are comfortable and the dashboard is simple to read. ${fuel} The steering feels light in town and the brakes are fine.`,
    'The Kestrel hatchback is sold in three colours and the dealers are friendly. It is a car for people who drive short distances most days, and it parks easily in narrow streets.',
  ].join('\n\n');

t.test('slot in the wrong place: the answer goes into the passage that dodges the question (r8)', async (t) => {
  const dodge = 'Fuel consumption depends on driving style, so one number cannot be given.';
  const r = auditContent({
    content: review(dodge),
    url: null,
    keyword: 'kestrel hatchback review',
    language: 'en',
    benchmark: serp([FUEL_Q], comps),
  });
  const task = r.recommendations.find((x) => x.evidence?.questions.includes(FUEL_Q));
  t.ok(task, 'the question is asked for');
  t.equal(task?.before, dodge, 'in the sentence that dodges it');
  t.equal(task?.after, dodge, 'left as it is until the author writes (an in-place task)');
  t.equal(task?.insertAt ?? null, null, 'not as a new section further down');
  t.ok(task?.authorDataOnly, 'an author task');
});

t.test('a sentence that names the point without dodging it is not taken for the passage', async (t) => {
  const r = auditContent({
    content: review('The fuel cap sits on the left, behind a small flap.'),
    url: null,
    keyword: 'kestrel hatchback review',
    language: 'en',
    benchmark: serp([FUEL_Q], comps),
  });
  t.same(
    r.recommendations.filter((x) => x.evidence?.questions.includes(FUEL_Q) && x.before !== ''),
    [],
    'no task in the sentence about the fuel cap',
  );
});

const hearsay = [
  '# Kestrel hatchback review',
  'The Kestrel hatchback is a small car that people talk about a lot, and owners on forums seem to like it.',
  'Some owners say the seats are comfortable, others find them hard. The Kestrel hatchback is said to be cheap to run, and many reviews call the steering light.',
  'The Kestrel hatchback comes in three colours. Dealers describe it as a good first car, and the brochures praise its boot.',
];
const firstHand = [
  '# Kestrel hatchback review',
  'I drove the Kestrel hatchback for three weeks and 1,400 km, in town and on the motorway, before writing this review.',
  'We measured 5.8 litres per 100 km on our test loop, and I timed 12.1 seconds from 0 to 100 km/h. The seats stayed comfortable on a four-hour drive.',
  'The Kestrel hatchback comes in three colours. The boot took two suitcases and a pram when I tried it.',
];
const bylineTasks = (content: string) =>
  auditContent({ content, url: null, keyword: 'kestrel hatchback review', language: 'en' }).recommendations.filter(
    (r) => r.evidence?.rule.startsWith('eeat'),
  );

t.test('noise: no byline task on a review of hearsay; one where the text rests on first-hand use (r8)', async (t) => {
  t.same(bylineTasks(hearsay.join('\n\n')), [], 'hearsay: a name would vouch for nothing');
  t.equal(bylineTasks(firstHand.join('\n\n')).length, 1, 'first-hand testing: a byline vouches for it');
});
