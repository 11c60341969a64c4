/**
 * How the keyphrase is matched and spread (issue 24, item 2), on texts written for this test (no
 * corpus text): intent modifiers are not part of the match; a sentence naming the subject breaks the
 * longest gap; support without the keyphrase neither breaks nor lengthens it; a list item's
 * sentences are sentences; a two-letter subject the page keeps using can be the detected keyword.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { describeKeyword, subjectPhrase } from '../../../services/engine/keyword.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const page = (title: string, body: string[]) => `# ${title}\n\n${body.join('\n\n')}\n`;
const density = (content: string, keyword: string) =>
  scoreContent({ content, format: 'markdown', url: null, keyword }).outcomes.find((o) => o.id === 'density')!;

t.test('intent modifiers ("best", "opinie", "review") are not matched; the subject is', async (t) => {
  const stems = (keyword: string, lines: string[]) =>
    prepareDocument({ content: page(keyword, lines), url: null, keyword }).kw.stems.sort();
  const mower = [
    'A cordless mower runs on a battery and starts at the push of a button.',
    'Most cordless mowers cut a lawn of 300 square metres on one charge of a 40 V battery.',
    'The deck of a cordless mower is usually 33 to 46 cm wide.',
  ];
  t.same(stems('best cordless mower', mower), stems('cordless mower', mower));
  const fabia = [
    'Skoda Fabia ma pojemny bagażnik o pojemności 380 litrów i oszczędny silnik.',
    'Skoda Fabia pali średnio 5,5 litra benzyny na 100 km w mieście.',
    'Właściciele chwalą Skodę Fabię za wygodne fotele i cichą kabinę.',
  ];
  const pl = stems('skoda fabia opinie', fabia);
  t.notOk(
    pl.some((s) => s.startsWith('opin')),
    `no "opinie" in ${pl}`,
  );
  // Nothing but modifiers: the phrase stays whole rather than empty.
  t.ok(describeKeyword('best reviews', createAnalyzer('en')).stems.length > 0);
});

t.test(
  'a sentence naming the subject breaks the gap: a natural guide is not told to repeat the whole phrase',
  async (t) => {
    const body = [
      'A cordless mower is the quiet choice for a small lawn of up to 400 square metres.',
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `The mower handles lawn number ${i + 1} with a 36 cm deck and a 40 V battery that lasts ${30 + i} minutes.`,
      ),
      'In short, a cordless mower saves you the cable and the petrol.',
    ];
    const d = density(page('Cordless mowers', body), 'cordless mower');
    t.notMatch(d.summary, /longest gap (?:[5-9]\d|100)%/, d.summary);
    t.ok(d.score >= 8, `density ${d.score}: ${d.summary}`);
  },
);

t.test('a sourced figure without the keyphrase does not lengthen the gap', async (t) => {
  const body = [
    'A cordless mower is the quiet choice for a small lawn.',
    'Charge the cordless mower battery fully before the first cut.',
    'Keep the blade sharp; a cordless mower wastes charge on a dull one.',
    'Store the cordless mower indoors over winter.',
    'Cut no more than a third of the grass height at once.',
    'Empty the grass box before it is full.',
    'Mow when the grass is dry.',
  ];
  const before = density(page('Cordless mowers', body), 'cordless mower');
  const withFigure = [...body];
  withFigure.splice(
    6,
    0,
    'According to the Royal Horticultural Society, a lawn cut weekly in May grows 20% denser than one cut monthly.',
  );
  const after = density(page('Cordless mowers', withFigure), 'cordless mower');
  t.ok(after.score >= before.score, `${before.score} → ${after.score}: ${after.summary}`);
});

t.test("a list item's sentences are sentences: two sourced figures in one item are two", async (t) => {
  const content = page('Cordless mowers', [
    'A cordless mower runs on a battery.',
    '- **Noise:** The EPA measured 75 dB at the operator. The Royal Horticultural Society counts 40% fewer complaints.',
    '- **Weight:** about 15 kg.',
  ]);
  const r = prepareDocument({ content, url: null, keyword: 'cordless mower' });
  t.equal(evidenceOf(r.doc).statistics.size, 2);
});

t.test('a two-letter subject the page keeps using can be the detected keyword', async (t) => {
  const content = page('Öl wechseln: so geht der Wechsel in 30 Minuten', [
    'Das Öl wechseln Sie alle 15.000 Kilometer oder einmal im Jahr.',
    'Altes Öl wird dunkel und dick; frisches Öl schützt den Motor.',
    'Lassen Sie das Öl warm ab, dann läuft es schneller aus.',
    'Füllen Sie danach 4 Liter neues Öl ein.',
  ]);
  const r = prepareDocument({ content, url: null, keyword: null });
  t.match(r.keyword.toLowerCase(), /(?:^|\s)öl(?:\s|$)/u, r.keyword);
});

t.test('advice to name the subject names it as a reader would, not the search query', async (t) => {
  const subject = (keyword: string, lang: 'en' | 'pl' | 'de') => {
    const an = createAnalyzer(lang);
    return subjectPhrase(describeKeyword(keyword, an), an);
  };
  t.equal(subject('co to jest hipoteka', 'pl'), 'hipoteka');
  t.equal(subject('what is a modem', 'en'), 'modem');
  t.equal(subject('best electric kettle', 'en'), 'electric kettle');
  t.equal(subject('skoda fabia opinie', 'pl'), 'skoda fabia');
  t.equal(subject('kayak vs canoe', 'en'), 'kayak vs canoe');
});

t.test(
  'German: a kind of the keyword noun and the compound head alone name the subject, as "the filter" does',
  async (t) => {
    const lines = [
      'Eine Luftpumpe gehört in jede Werkstatt.',
      'Die Pumpe schafft bis zu 11 bar und hat ein Manometer am Fuß.',
      'Unsere Fahrrad-Luftpumpe aus Aluminium wiegt nur 1,2 kg.',
      'Der Schlauch ist 80 cm lang und passt an Presta- und Schrader-Ventile.',
      'Mit der Pumpe war der Rennradreifen in 40 Hüben auf 7 bar.',
      'Die Standpumpe steht dank breiter Füße auch auf Fliesen sicher.',
      'Der Griff aus Holz liegt gut in der Hand, auch mit Handschuhen.',
      'Für Mountainbikes mit 2 bar reichen 15 Hübe.',
    ];
    const d = density(page('Luftpumpe im Test', lines), 'Luftpumpe');
    // One exact use in 74 words is 1.4 %, but the sentences of the pump alone break the gap.
    t.notMatch(d.summary, /longest gap (?:[5-9]\d|100)%/, d.summary);
    const long = [
      ...lines,
      ...Array.from({ length: 20 }, (_, i) => `Die Pumpe füllte Reifen ${i + 1} mit ${i + 3} bar in ${20 + i} Hüben.`),
    ];
    const exact = long.filter((l) => /Luftpumpe/.test(l)).length;
    t.equal(exact, 2, 'two exact uses in about 250 words: under 0.5 %');
    const dl = density(page('Luftpumpe im Test', long), 'Luftpumpe');
    t.ok(dl.score >= 8, `density ${dl.score}: ${dl.summary}`);
  },
);
