/**
 * A paper cited as bibliographies cite it is a citation (issue 24: citations raise the evidence
 * signals without a magic phrase): its volume and issue, its page range, "et al." with a year, a
 * DOI; and "vol." or "pp." before a number ends no sentence. Sentences written for this test.
 */
import t from 'tap';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const read = (content: string) => prepareDocument({ content, url: null, keyword: 'sourdough', format: 'markdown' }).doc;
const citations = (sentence: string) => evidenceOf(read(`# Sourdough\n\n${sentence}`)).citations.size;

t.test('a paper cited by its bibliographic reference is a citation', async (t) => {
  t.equal(
    citations(
      'A study of bakery starters in Food Microbiology (2019, vol. 82, no. 4) traced the sour taste to two strains.',
    ),
    1,
    'volume and issue',
  );
  t.equal(
    citations('Starters stay stable for years, as Gänzle et al. 2014 showed for rye doughs.'),
    1,
    'et al. and a year',
  );
  t.equal(
    citations('The lactic bacteria of rye doughs are described on pp. 112–118 of the handbook.'),
    1,
    'a page range',
  );
  t.equal(citations('The strains were sequenced (doi:10.1016/j.fm.2019.02.003) by a team in Munich.'), 1, 'a DOI');
});

t.test('ordinary prose is no citation, and "vol." before a number ends no sentence', async (t) => {
  t.equal(citations('Feed the starter twice a day and keep it at room temperature for a week.'), 0);
  t.equal(citations('Use about 100 g of starter per loaf and bake at 230 °C.'), 0);
  const doc = read('# Sourdough\n\nThe paper appeared in vol. 82, no. 4 of the journal. It covers rye starters.');
  t.equal(doc.sentences.length, 2, doc.sentences.map((s) => s.text).join(' | '));
});
