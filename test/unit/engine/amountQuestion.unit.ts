/**
 * A People Also Ask question that asks for an amount ("how tight", "wie oft", "ile") is answered only
 * by a passage that gives a figure (digits or a number word): one that names the question's words
 * and stays vague ("tight, but not too tight") touches it without answering, so the task stays
 * (issue 23, the corpus-h reviewer's missed questions). Texts written for this test.
 */
import t from 'tap';
import { answeredInBody } from '../../../services/engine/grounding.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const answered = (content: string, q: string, keyword: string, language: string) => {
  const p = prepareDocument({ content, format: 'markdown', url: null, keyword, language });
  return answeredInBody(p.doc, q, { an: p.an, kw: p.kw });
};
const page = (passage: string) =>
  `# Tension a bike chain\n\nA loose chain slips off the sprocket on the first climb.\n\n## Tension\n\n${passage} Loosen the axle nuts first.\n\n## Tools\n\nYou need one spanner.\n`;

t.test('an amount question needs a figure where its words stand', async (t) => {
  const q = 'How tight should a bike chain be?';
  t.notOk(answered(page('The chain should be tight, but not too tight.'), q, 'tension a bike chain', 'en'));
  t.ok(
    answered(page('The chain should be tight: about 12 mm of play in the middle.'), q, 'tension a bike chain', 'en'),
  );
  t.ok(
    answered(page('The chain should be tight, with two fingers of play.'), q, 'tension a bike chain', 'en'),
    'a number word',
  );
  t.ok(
    answered(
      page('The chain should be tight, but not too tight.'),
      'Why should a bike chain be tight?',
      'tension a bike chain',
      'en',
    ),
    'not an amount question: as before',
  );
});

t.test('German and Polish amount questions', async (t) => {
  const de = (p: string) =>
    `# Bremse entlüften\n\nEine weiche Bremse ist gefährlich.\n\n## Wechsel\n\n${p} Prüfen Sie den Stand im Behälter.\n`;
  t.notOk(
    answered(
      de('Die Bremsflüssigkeit wechselt man regelmäßig.'),
      'Wie oft wechselt man die Bremsflüssigkeit?',
      'Bremse entlüften',
      'de',
    ),
  );
  t.ok(
    answered(
      de('Die Bremsflüssigkeit wechselt man alle zwei Jahre.'),
      'Wie oft wechselt man die Bremsflüssigkeit?',
      'Bremse entlüften',
      'de',
    ),
  );
  const pl = (p: string) =>
    `# Jak napompować oponę\n\nZa miękka opona łatwo łapie kapcia.\n\n## Ciśnienie\n\n${p} Sprawdź je manometrem.\n`;
  t.notOk(
    answered(
      pl('Oponę trzeba pompować do odpowiedniego ciśnienia.'),
      'Do ilu barów pompować oponę?',
      'jak napompować oponę',
      'pl',
    ),
  );
  t.ok(
    answered(
      pl('Oponę trzeba pompować do ciśnienia 4 barów.'),
      'Do ilu barów pompować oponę?',
      'jak napompować oponę',
      'pl',
    ),
  );
});

t.test('"a dozen or so" dodges an amount: no answer (pl „kilkanaście”)', async (t) => {
  const pl = (p: string) =>
    `# Jak napompować oponę\n\nZa miękka opona łatwo łapie kapcia.\n\n## Ciśnienie\n\n${p} Sprawdź je manometrem.\n`;
  const q = 'Do ilu barów pompować oponę?';
  t.notOk(answered(pl('Oponę trzeba pompować do ciśnienia kilkanaście barów.'), q, 'jak napompować oponę', 'pl'));
  t.ok(
    answered(pl('Oponę trzeba pompować do ciśnienia trzech barów.'), q, 'jak napompować oponę', 'pl'),
    'a small number word',
  );
});
