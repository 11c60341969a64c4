import t from 'tap';
import { SMOKER_SHARED } from '../../fixtures/engine/smokerSentences.ts';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { buildReferentModel, judgeReferent } from '../../../services/engine/referent.ts';

/**
 * A thin page is no other referent (issue 24; referent.ts, SAYS_ENOUGH). A short, generic,
 * keyword-padded page is far from every result for want of words, not for other words: the words
 * view set such pages apart as "another meaning" in SERPs of intended pages only. Made-up pages for
 * "best smoker": four about smokers for meat, and a thin one that says nothing but the keyword.
 */
const shared = SMOKER_SHARED;
const meat = [
  'Brisket and ribs need a low fire and patience over a long session.',
  'Pork shoulder stays juicy when the heat never climbs too high.',
  'Salmon fillets take a cooler chamber and less than two hours.',
  'Chicken thighs crisp up when the vents open for the last twenty minutes.',
];
const pageOf = (own: string[], offset: number, n = 36) =>
  Array.from({ length: n }, (_, i) =>
    i % 3 === 2 ? own[(Math.floor(i / 3) + offset) % own.length]! : shared[(i + offset) % shared.length]!,
  ).join(' ');
const an = createAnalyzer('en');
const kw = ['best', 'smoker'];
const docOf = (title: string, text: string) =>
  prepareDocument({ content: `# ${title}\n\n${text}`, url: null, keyword: 'best smoker', language: 'en' }).doc;
const thin = docOf(
  'The best smoker',
  [
    'Everyone wants the best smoker.',
    'The best smoker is a great choice for you.',
    'Many people say it is really good and very nice.',
    'You will be happy with it, we think so.',
    'It is simply the best smoker there is, so buy it now.',
  ].join(' '),
);
const meatPages = [0, 1, 2, 3].map((k) => docOf(`Best smoker of the year, test ${k}`, pageOf(meat, k)));

t.test('a thin page among intended results is neither left out nor judged another meaning', async (t) => {
  const model = buildReferentModel([...meatPages, thin], an, kw, {});
  t.ok(model);
  t.same(model!.outliers, [], 'no result left out');
  t.equal(judgeReferent(model, thin).status, 'same', 'the thin article is judged with the results');
});

t.test('with three results the bar stands down: one page is no median of a SERP', async (t) => {
  const model = buildReferentModel([meatPages[0]!, meatPages[1]!, thin], an, kw, {});
  t.equal(model!.vocabulary, 0);
});
