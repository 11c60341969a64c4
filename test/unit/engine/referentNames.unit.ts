import t from 'tap';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { namedApart } from '../../../services/engine/referentNames.ts';

/**
 * The results' names as a view of the referent (issue 24): a result rich in names that shares none
 * with the others, while they share theirs, names other things. Made-up pages about a ferry strike
 * in a town called Harwick, and one about a Harwick of another country.
 */
const page = (names: string[], n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `The ferry crews stopped work again, said ${names[i % names.length]}, and the crossing to ${names[(i + 1) % names.length]} was cancelled.`,
  ).join(' ');

const home = ['Dovercourt', 'Mistley', 'Ramsden', 'Walton', 'Bramley', 'Ellery', 'Tollesbury', 'Coggeshall'];
const away = [
  'Saskatoon',
  'Regina',
  'Moosejaw',
  'Yorkton',
  'Estevan',
  'Weyburn',
  'Kindersley',
  'Humboldt',
  'Melfort',
  'Nipawin',
  'Lloydminster',
  'Battleford',
  'Swiftcurrent',
  'Rosetown',
  'Outlook',
  'Watrous',
];
const docOf = (text: string, language: 'en' | 'de' = 'en') =>
  prepareDocument({ content: `# Ferry strike\n\n${text}`, url: null, keyword: 'harwick ferry strike', language }).doc;
const kw = ['harwick', 'ferri', 'strike'];

t.test('a name-rich result sharing no name with the others is set apart', async (t) => {
  const results = [
    page([...home, 'Alder', 'Birch', 'Cedar', 'Dunmore', 'Elmstead', 'Frinton', 'Gosfield'], 16),
    page([...home.slice(2), 'Hadleigh', 'Ingatestone', 'Jaywick', 'Kelvedon', 'Layer'], 14),
    page([...home.slice(0, 6), 'Manningtree', 'Nayland', 'Ongar', 'Purleigh'], 12),
    page([...home.slice(1), 'Quendon', 'Rayne', 'Stisted'], 10),
    page(away, 16),
  ].map((x) => docOf(x));
  t.same(namedApart(results, createAnalyzer('en'), kw), [4]);
});

t.test('no view where the results share no names, the SERP is small, or the language capitalises nouns', async (t) => {
  const scattered = [0, 1, 2, 3].map((k) =>
    docOf(
      page(
        away.map((x) => `${x}${k}`),
        16,
      ),
    ),
  );
  t.same(namedApart(scattered, createAnalyzer('en'), kw), [], 'nobody shares names: no view');
  const small = [page(home, 10), page(home, 10), page(away, 16)].map((x) => docOf(x));
  t.same(namedApart(small, createAnalyzer('en'), kw), [], 'three results');
  const de = [page(home, 10), page(home, 10), page(home, 10), page(away, 16)].map((x) => docOf(x, 'de'));
  t.same(namedApart(de, createAnalyzer('de'), kw), [], 'German');
});
