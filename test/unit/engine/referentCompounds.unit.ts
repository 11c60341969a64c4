import t from 'tap';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { compoundsApart } from '../../../services/engine/referentCompounds.ts';
import { describeKeyword } from '../../../services/engine/keyword.ts';
import { competitorDoc } from '../../../services/engine/competitors.ts';
import { loadSet, TUNING_SETS } from '../../eval/corpus.ts';

/**
 * The keyword's compounds as a view of the referent in German (issue 24): made-up pages on
 * tensioning a bicycle's chain, which write Fahrradkette, Kettenblatt and Kettenschaltung, and one
 * on a chainsaw's, which writes Sägekette, Kettenschiene and Kettenöl: the same words, another thing.
 */
const sentence = (a: string, b: string) =>
  `Wer die ${a} prüft, sieht zuerst nach der ${b} und dreht dann die Schraube eine halbe Umdrehung.`;
const page = (compounds: string[], n: number) =>
  Array.from({ length: n }, (_, i) =>
    sentence(compounds[i % compounds.length]!, compounds[(i + 1) % compounds.length]!),
  ).join(' ');

const bike = ['Fahrradkette', 'Kettenblatt', 'Kettenschaltung', 'Kettenlinie'];
const saw = ['Sägekette', 'Kettenschiene', 'Kettenöl', 'Kettenrad', 'Kettenbremse', 'Kettenglied'];
const docOf = (text: string, language: 'de' | 'en' = 'de') =>
  prepareDocument({ content: `# Kette spannen\n\n${text}`, url: null, keyword: 'Kette spannen', language }).doc;
const an = createAnalyzer('de');
const kw = describeKeyword('Kette spannen', an).stems;

t.test('a result whose compounds name another kind of the thing is set apart', async (t) => {
  const results = [page(bike, 8), page(bike.slice(1), 6), page([...bike, 'Kettenschutz'], 7), page(saw, 9)].map((x) =>
    docOf(x),
  );
  t.same(compoundsApart(results, an, kw), [3]);
});

t.test('no view where the results agree, use few compounds, or the language writes them open', async (t) => {
  const agreeing = [page(bike, 8), page(bike.slice(1), 6), page([...bike, 'Kettenschutz'], 7), page(bike, 9)];
  t.same(
    compoundsApart(
      agreeing.map((x) => docOf(x)),
      an,
      kw,
    ),
    [],
    'all about one kind',
  );
  const sparse = [page(bike, 2), page(bike, 2), page(bike, 2), page(saw, 9)];
  t.same(
    compoundsApart(
      sparse.map((x) => docOf(x)),
      an,
      kw,
    ),
    [],
    'the others use too few compounds to agree',
  );
  const few = [page(bike, 8), page(bike, 8), page(saw, 9)];
  t.same(
    compoundsApart(
      few.map((x) => docOf(x)),
      an,
      kw,
    ),
    [],
    'three results',
  );
  const en = [page(bike, 8), page(bike.slice(1), 6), page(bike, 7), page(saw, 9)].map((x) => docOf(x, 'en'));
  t.same(compoundsApart(en, createAnalyzer('en'), kw), [], 'not German');
});

/**
 * Precision over every German topic of the sets the engine is tuned on: the view sets apart no
 * intended result, whether the other meaning is among the results or not.
 */
for (const set of TUNING_SETS)
  for (const topic of loadSet(set).filter((x) => x.language === 'de')) {
    t.test(`${set} ${topic.id}: no intended result set apart by its compounds`, async (t) => {
      const stems = describeKeyword(topic.keyword, an).stems;
      const docs = topic.serp.competitors.map((c) => competitorDoc(c, an)!);
      const apart = compoundsApart(docs, an, stems).map((i) => topic.serp.competitors[i]!.url);
      t.same(
        apart.filter((u) => !topic.otherUrls.includes(u)),
        [],
        'with the other meaning among them',
      );
      const intended = docs.filter((_, i) => !topic.otherUrls.includes(topic.serp.competitors[i]!.url));
      t.same(compoundsApart(intended, an, stems), [], 'only intended results');
    });
  }
