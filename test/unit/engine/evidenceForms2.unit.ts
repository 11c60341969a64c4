/**
 * Issue 24, a second writer's forms: a figure sourced by a publication named after its kind, a
 * test or a German research compound, an institution by its own word; a lower-case-initial
 * publisher's possessive; sweeping filler (few function words in Polish) recognised as filler; the
 * experience phrases read as whole words; the keyword's entity read from the writer's sentences.
 * Sentences written for these tests, not taken from any corpus.
 */
import t from 'tap';
import { scoreEeatDetail } from '../../../services/engine/eeat.ts';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { gamingOf } from '../../../services/engine/dimensions/gaming.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import type { ScoringContext } from '../../../services/engine/context.ts';

const prep = (content: string, keyword: string) => prepareDocument({ content, url: null, keyword, format: 'markdown' });
const stats = (content: string, keyword: string) => evidenceOf(prep(content, keyword).doc);

t.test('a figure sourced by a publication, a test or a research compound is a statistic', async (t) => {
  const de = stats(
    '# Gartenhaus\n\nEin Langzeittest der Zeitschrift Haus Heute ergab 2022, dass 30 % der Dächer nach zehn Jahren undicht waren. ' +
      'In den Feuchtemessungen der Stiftung Holzschutz lag der Wert bei über 20 % im Winter.',
    'gartenhaus',
  );
  t.equal(de.statistics.size, 2, 'de: a publication after its kind; a Stiftung');
  const pl = stats(
    '# Szopa ogrodowa\n\nW teście tygodnika „Dom i Ogród” z 2023 r. deska sosnowa nasiąkała o 15% szybciej niż świerkowa.',
    'szopa ogrodowa',
  );
  t.equal(pl.statistics.size, 1, 'pl: a test in a weekly named in quotation marks');
  const en = stats(
    "# Garden shed\n\nPlanning ahead matters. eBay's sales rankings show that 40 % of sheds sold are under 6 m², most of them timber.",
    'garden shed',
  );
  t.equal(en.citations.size, 1, "en: a lower-case-initial publisher's rankings");
});

t.test('look-alikes stay out: a latest figure, a test without a year or name, a magazine rack', async (t) => {
  const en = stats(
    '# Garden shed\n\nThe latest sheds are about 20 % larger than older ones. A simple test shows 10 % less damp. ' +
      'A magazine rack fits in 2 m² of floor.',
    'garden shed',
  );
  t.equal(en.statistics.size, 0, 'no named source, no study with a year');
});

const FILLER_PL =
  'Prace w ogrodzie wymagają przede wszystkim spokoju i cierpliwości. Nie warto się spieszyć, bo pośpiech rzadko ' +
  'prowadzi do dobrych efektów. Lepiej poświęcić chwilę na przemyślenie kolejnych czynności niż później naprawiać ' +
  'skutki nieuwagi przy każdej domowej pracy.';

t.test('sweeping Polish filler is filler though it has few function words', async (t) => {
  const body =
    '# Szopa ogrodowa\n\nSzopa ogrodowa z drewna sosnowego ma zwykle 6 m² i stoi na bloczkach betonowych. ' +
    'Dach szopy kryje się papą na deskach 19 mm. Podłogę szopy układa się z desek impregnowanych ciśnieniowo.\n\n' +
    `${FILLER_PL}\n\n## Fundament szopy\n\nFundament szopy ogrodowej to bloczki 38 × 24 cm co 1,2 m na podsypce.`;
  const p = prep(body, 'szopa ogrodowa');
  const g = gamingOf(p.doc, p.kw, p.an);
  const fill = p.doc.sentences.filter((s) => FILLER_PL.includes(s.text));
  t.ok(fill.length >= 3 && fill.every((s) => g.filler.has(s)), 'every sentence of the paragraph is filler');
  const real = p.doc.sentences.filter((s) => !FILLER_PL.includes(s.text));
  t.ok(
    real.every((s) => !g.filler.has(s)),
    'the specific paragraphs are not',
  );
});

t.test('experience phrases are whole words: "sam" is not "samopoczucie"', async (t) => {
  const exp = (text: string) => {
    const p = prep(`# Szopa ogrodowa\n\n${text}`, 'szopa ogrodowa');
    const ctx = { an: p.an, lex: p.lex, lang: p.language, kw: p.kw, bench: null, selfShingles: null };
    return scoreEeatDetail(p.doc, ctx as unknown as ScoringContext).eeat.experience;
  };
  const base = 'Szopa ogrodowa ma 6 m² i stoi na bloczkach betonowych, a jej dach kryje papa.';
  t.equal(
    exp(`${base} Dobre samopoczucie i samodzielna praca to podstawa.`),
    exp(base),
    'no experience from substrings',
  );
  t.ok(exp(`${base} Zbudowałem ją sam w dwa weekendy.`) > exp(base), 'the word itself counts');
});

t.test('a quotation naming a place does not move the keyword entity to the place', async (t) => {
  const text =
    '# Serwis kosiarek Opole\n\nSerwis kosiarek w Opolu wymienia noże i olej w 1 dzień. ' +
    'Serwis kosiarek odbiera sprzęt z domu. Serwis kosiarek ostrzy noże w 30 minut. Dojazd w Opolu jest bezpłatny.\n\n' +
    '„Tępy nóż szarpie trawę i zostawia brązowe końcówki na całym trawniku w Opolu” – mówi Jan Kowalski, ' +
    'wykładowca maszyn rolniczych w Opolu.\n\n„Olej po sezonie to połowa trwałości silnika każdej kosiarki w Opolu” – dodaje Anna Nowak.';
  const p = prep(text, 'serwis kosiarek opole');
  t.not(p.kw.entity, 'opole', `entity "${p.kw.entity}": the speakers' mentions of the city are not the page's`);
});

t.test('a figure its finder counted or measured, named or dated, is a statistic; an unnamed one is not', async (t) => {
  const en = stats(
    '# Hedges\n\nAfter the 2021 frost, the Leeds parks team counted 640 dead hedges along the ring road. ' +
      'Experts found that 90% of hedges need trimming. We found that three cuts are enough.',
    'hedges',
  );
  t.equal(en.statistics.size, 1, 'en: a dated count by a named team, not "experts found"');
  const pl = stats('# Żywopłot\n\nW 2022 r. inspektorzy odnotowali 12% uschniętych krzewów w parkach.', 'żywopłot');
  t.equal(pl.statistics.size, 1, 'pl: a dated finding');
  const de = stats(
    '# Hecke\n\nDer NABU zählte 2023 rund 400 Brutpaare in den Hecken. Der Gärtner zählte 40 Pflanzen im Beet.',
    'hecke',
  );
  t.equal(de.statistics.size, 1, 'de: an acronym or a year names the finding; a capitalised noun does not');
});

t.test('a quotation that goes on in a sentence of its own after the attribution is still the quotation', async (t) => {
  const e = stats(
    '# Handy-Akku\n\nDer Tausch dauert eine Stunde. „Wer den Kleber nicht lange genug erwärmt, reißt das Flachbandkabel ab“, ' +
      'sagt Tom Berger, Ausbilder an einer Berufsschule. „Zwei Minuten mehr Wärme sparen am Ende ein ganzes Display.“',
    'handy akku tauschen',
  );
  t.equal(e.quotes.size, 2, 'both sentences of the quotation');
  const alone = stats(
    '# Handy-Akku\n\nDer Tausch dauert eine Stunde. „Zwei Minuten mehr Wärme sparen am Ende ein ganzes Display.“',
    'handy akku tauschen',
  );
  t.equal(alone.quotes.size, 0, 'a quotation nobody said is no named quotation');
});
