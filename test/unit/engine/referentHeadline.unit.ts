import t from 'tap';
import { SMOKER_SHARED } from '../../fixtures/engine/smokerSentences.ts';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { headlinedApart } from '../../../services/engine/referentHeadline.ts';
import { buildReferentModel } from '../../../services/engine/referent.ts';
import { competitorDoc } from '../../../services/engine/competitors.ts';
import { describeKeyword } from '../../../services/engine/keyword.ts';
import { loadSet, TUNING_SETS } from '../../eval/corpus.ts';

/**
 * The thing a result keeps naming as a view of the referent (issue 24, close referents). Made-up
 * pages for "best smoker": five about smokers for meat, and one about the beekeeper's smoker, told
 * in the same words (fuel, smoke, lid, hours, price) but naming the hive throughout.
 */
const shared = SMOKER_SHARED;
const meat = [
  'Brisket and ribs need a low fire and patience over a long session.',
  'Pork shoulder stays juicy when the heat never climbs too high.',
];
const hive = [
  'A calm hive lets the keeper lift the frames without a single sting.',
  'Puff gently at the hive entrance and wait a minute before opening the hive.',
  'Pine needles and burlap make a cool smoke that does not scorch the hive.',
];
const pageOf = (own: string[], offset: number, n = 34) =>
  Array.from({ length: n }, (_, i) =>
    i % 3 === 2 ? own[Math.floor(i / 3) % own.length]! : shared[(i + offset) % shared.length]!,
  ).join(' ');

const an = createAnalyzer('en');
const kw = ['best', 'smoker'];
const docOf = (title: string, text: string) =>
  prepareDocument({ content: `# ${title}\n\n${text}`, url: null, keyword: 'best smoker', language: 'en' }).doc;

const meatPages = [0, 1, 2, 3, 4].map((k) => docOf(`Best smoker of the year, test ${k}`, pageOf(meat, k)));
const titles = (n: number) => Array.from({ length: n }, () => null);

t.test('a result whose title and most used words name a thing no other result names is set apart', async (t) => {
  const pages = [...meatPages, docOf('The best smoker for a calm hive', pageOf(hive, 2))];
  t.same(headlinedApart(pages, an, kw, titles(6), new Set()), [5]);
});

t.test('a name, a word the questions ask about, or a word the title does not give sets nothing apart', async (t) => {
  const named = hive.map((s) => s.replaceAll('hive', 'Hivemaster'));
  t.same(
    headlinedApart(
      [...meatPages, docOf('The best smoker: Hivemaster', pageOf(named, 2))],
      an,
      kw,
      titles(6),
      new Set(),
    ),
    [],
    'a model or firm named by one result alone',
  );
  const pages = [...meatPages, docOf('The best smoker for a calm hive', pageOf(hive, 2))];
  t.same(headlinedApart(pages, an, kw, titles(6), new Set([an.stem('hive')])), [], 'the questions ask about it');
  t.same(
    headlinedApart(
      [...meatPages, docOf('The best smoker for a calm day', pageOf(hive, 2))],
      an,
      kw,
      titles(6),
      new Set(),
    ),
    [],
    'its title does not name it',
  );
});

t.test('no view on a small SERP or where most results stand apart', async (t) => {
  const other = docOf('The best smoker for a calm hive', pageOf(hive, 2));
  t.same(headlinedApart([meatPages[0]!, meatPages[1]!, other], an, kw, titles(3), new Set()), [], 'three results');
  const kinds = ['hive', 'boat', 'tent', 'barn'].map((x, k) =>
    docOf(
      `The best smoker for a ${x}`,
      pageOf(
        hive.map((s) => s.replaceAll('hive', x)),
        k,
      ),
    ),
  );
  t.same(headlinedApart([...kinds, meatPages[0]!], an, kw, titles(5), new Set()), [], 'most results stand apart');
});

/**
 * German writes every noun with a capital, so a name is told by what follows it (a model number)
 * and a kind by the lower-case word after it; the page may name the thing inside a compound of its
 * subheading. Made-up pages for "Smoker Test": the meat smoker, and one about the beekeeper's.
 */
const deShared = [
  'Ein guter Smoker hält seine Temperatur stundenlang mit wenig Brennstoff.',
  'Die Brennkammer verbrennt Holzkohle und kleine Holzstücke, die dem Rauch den Geschmack geben.',
  'Ein dichter Deckel hält den Rauch im Inneren und spart an windigen Tagen Brennstoff.',
  'Billige Modelle verlieren Rauch durch dünnen Stahl und kühlen schnell aus.',
  'Leeren Sie die Aschelade nach jeder Sitzung, damit die Luft frei strömen kann.',
  'Ein stabiler Smoker kostet ab etwa zweihundert Euro.',
  'Dicke Stahlwände halten die Hitze auch bei kaltem Wetter.',
  'Ein eingebautes Thermometer erspart das Raten, auch wenn viele Besitzer einen zweiten Fühler nutzen.',
];
const deMeat = [
  'Rippchen und Brisket brauchen ein kleines Feuer und viel Geduld.',
  'Schweinenacken bleibt saftig, wenn die Hitze nie zu hoch steigt.',
];
const deHive = [
  'Die Beute bleibt ruhig, wenn der Imker sanft am Flugloch raucht.',
  'Kiefernnadeln und Jute geben einen kühlen Rauch, der die Beute nicht versengt.',
  'Warten Sie eine Minute, bevor Sie die Beute öffnen und die Waben heben.',
];
const de = createAnalyzer('de');
const deKw = [de.stem('smoker'), de.stem('test')];
const dePage = (own: string[], offset: number) =>
  Array.from({ length: 34 }, (_, i) =>
    i % 3 === 2 ? own[Math.floor(i / 3) % own.length]! : deShared[(i + offset) % deShared.length]!,
  ).join(' ');
const deDoc = (title: string, text: string) =>
  prepareDocument({ content: `# ${title}\n\n${text}`, url: null, keyword: 'Smoker Test', language: 'de' }).doc;
const deMeatPages = [0, 1, 2, 3, 4].map((k) => deDoc(`Smoker Test ${k}: die besten Geräte`, dePage(deMeat, k)));

t.test("German: a kind named inside a subheading's compound sets a result apart, a model name does not", async (t) => {
  const hive = deDoc('Smoker Test: sanfter Rauch', `## Beutenpflege mit Rauch\n\n${dePage(deHive, 2)}`);
  t.same(headlinedApart([...deMeatPages, hive], de, deKw, titles(6), new Set()), [5]);
  const model = deHive.map((x) =>
    x.replaceAll('die Beute', 'der Rauchmeister 300').replaceAll('Die Beute', 'Der Rauchmeister 300'),
  );
  const named = deDoc('Smoker Test: Rauchmeister', `## Rauchmeister im Alltag\n\n${dePage(model, 2)}`);
  t.same(headlinedApart([...deMeatPages, named], de, deKw, titles(6), new Set()), [], 'a model and its number');
  const untold = deDoc('Smoker Test: sanfter Rauch', dePage(deHive, 2));
  t.same(headlinedApart([...deMeatPages, untold], de, deKw, titles(6), new Set()), [], 'no heading names it');
});

t.test("another result's title uses the word: nothing set apart", async (t) => {
  const pages = [...meatPages, docOf('The best smoker for a calm hive', pageOf(hive, 2))];
  const serpTitles: (string | null)[] = titles(6);
  serpTitles[0] = 'Best smoker: from the barbecue to the hive';
  t.same(headlinedApart(pages, an, kw, serpTitles, new Set()), []);
});

/**
 * Related searches are refinements of the query, and a refinement may name the other meaning ("best
 * smoker for a bee hive"); the People Also Ask questions are what people ask about the meaning the
 * SERP serves. So the view's "the questions never ask about it" reads the questions.
 */
t.test('a related search that names the other thing does not keep it in; a question does', async (t) => {
  const pages = [...meatPages, docOf('The best smoker for a calm hive', pageOf(hive, 2))];
  const questions = ['How long does a brisket take in a smoker?', 'Is a pellet smoker worth it?'];
  const refinement = 'best smoker for a bee hive';
  const model = (serp: { query: string[]; questions: string[] }) => buildReferentModel(pages, an, kw, serp)?.outliers;
  t.same(model({ query: [...questions, refinement], questions }), [5], 'named by a related search only');
  t.same(
    model({ query: [...questions, refinement], questions: [...questions, 'Can a smoker calm a bee hive?'] }),
    [],
    'asked about by a question',
  );
});

/**
 * Precision over every topic of the sets the engine is tuned on: the view, as the engine asks it
 * (the questions confirm what it sets apart), sets apart no intended result, whether the other
 * meaning is among the results or not.
 */
for (const set of TUNING_SETS)
  for (const topic of loadSet(set)) {
    t.test(`${set} ${topic.id}: no intended result set apart by its headline word`, async (t) => {
      const lang = createAnalyzer(topic.language);
      const stems = describeKeyword(topic.keyword, lang).stems;
      const serp = { query: [...topic.serp.paa, ...topic.serp.related], questions: topic.serp.paa };
      const headlined = (keep: number[]) => {
        const pages = keep.map((i) => topic.serp.competitors[i]!);
        const docs = pages.map((c) => competitorDoc(c, lang)!);
        const model = buildReferentModel(docs, lang, stems, { ...serp, titles: pages.map((c) => c.title ?? null) });
        return model?.view === 'headline' ? model.outliers.map((i) => pages[i]!.url) : [];
      };
      const all = topic.serp.competitors.map((_, i) => i);
      const intended = all.filter((i) => !topic.otherUrls.includes(topic.serp.competitors[i]!.url));
      t.same(
        headlined(all).filter((u) => !topic.otherUrls.includes(u)),
        [],
        'with the other meaning among them',
      );
      t.same(headlined(intended), [], 'only intended results');
    });
  }

/**
 * Hostile competitor pages (issue 22's rule): a page of one 100,000-character token costs the German
 * name test a bounded multiple of an ordinary page of its length, not the square of its length (the
 * test read "Fahrradkette … Schwert" at every letter of a token: 40,000 letters took 1.7 s).
 */
t.test('German: a page of one huge token costs about what a normal page of its length does', async (t) => {
  const cpu = (pages: ReturnType<typeof deDoc>[]) => {
    const start = process.cpuUsage();
    headlinedApart(pages, de, deKw, titles(pages.length), new Set());
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  const long = 100_000;
  const prose = dePage(deHive, 2);
  const normal = deDoc(
    'Smoker Test: Alltag',
    `${prose} ${Array.from({ length: long / 60 }, (_, i) => deShared[i % deShared.length]).join(' ')}`,
  );
  const tokens = ['a'.repeat(long), 'a-'.repeat(long / 2)].map((x) => deDoc('Smoker Test: Alltag', `${prose} ${x}.`));
  cpu([...deMeatPages, normal]);
  const base = cpu([...deMeatPages, normal]);
  for (const page of tokens) {
    const ms = cpu([...deMeatPages, page]);
    t.ok(ms <= 10 * base + 250, `${Math.round(ms)} ms against ${Math.round(base)} ms`);
  }
});
