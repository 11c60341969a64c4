/**
 * A question of cost is spoken to by a sentence on the price, in either word (blind review r27: "Ile
 * kosztuje wizyta …?" got a new section at the end while the page's „Cena …” section dodged it; the
 * answer belongs in the dodging sentence). Made-up pages on a beauty salon, in three languages.
 */
import t from 'tap';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { passageOn } from '../../../services/engine/questionMatch.ts';
import { recLexiconFor } from '../../../services/engine/text/recLexicon.ts';

const cases = [
  {
    language: 'en',
    keyword: 'beauty salon harwick',
    question: 'How much does a visit cost?',
    dodge: 'The price depends on the treatment and is agreed on the day.',
    other: 'Our team has worked in the old town since 2009 and uses vegan products.',
  },
  {
    language: 'pl',
    keyword: 'salon kosmetyczny gdynia',
    question: 'Ile kosztuje wizyta?',
    dodge: 'Cena zależy od rodzaju zabiegu i ustalamy ją indywidualnie.',
    other: 'Nasz zespół pracuje w centrum miasta od 2009 roku i używa wegańskich kosmetyków.',
  },
  {
    language: 'de',
    keyword: 'kosmetikstudio bremen',
    question: 'Was kostet ein Besuch?',
    dodge: 'Der Preis hängt von der Behandlung ab und wird individuell vereinbart.',
    other: 'Unser Team arbeitet seit 2009 in der Altstadt und verwendet vegane Produkte.',
  },
] as const;

t.test('the price sentence that dodges is where the cost question is answered', async (t) => {
  for (const c of cases) {
    const p = prepareDocument({
      content: `# ${c.keyword}\n\n${[2001, 2002, 2003].map((y) => c.other.replace('2009', String(y))).join(' ')}\n\n## Preise\n\n${c.dodge}\n\n${[2004, 2005].map((y) => c.other.replace('2009', String(y))).join(' ')}`,
      url: null,
      keyword: c.keyword,
      language: c.language,
      benchmark: null,
    });
    const rl = recLexiconFor(c.language);
    const at = passageOn(p.doc, c.question, { an: p.an, kw: p.kw, lex: p.lex }, (s) =>
      [...rl.dodges, ...p.lex.hedges].some((d) => s.toLowerCase().includes(d)),
    );
    t.equal(at?.text, c.dodge, c.language);
  }
});

t.test('a word of value that is no price does not speak to cost (pl "cenny")', async (t) => {
  t.notOk(recLexiconFor('pl').priceWords.test('cenny'));
  t.ok(recLexiconFor('pl').priceWords.test('ceny'));
});
