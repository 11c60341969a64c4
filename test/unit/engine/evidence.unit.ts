/**
 * Gaming and evidence by form (issue 24, item 2): a source named in running text is evidence
 * without "according to"; a keyphrase repeated where a pronoun would do is stuffing; support keeps
 * adding credit with diminishing returns.
 */
import t from 'tap';
import { supportCredit } from '../../../services/engine/eeat.ts';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { gamingOf } from '../../../services/engine/dimensions/gaming.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const prep = (content: string, keyword: string) => prepareDocument({ content, url: null, keyword, format: 'markdown' });
const kinds = (content: string, keyword = 'garden shed') => {
  const e = evidenceOf(prep(content, keyword).doc);
  return { quotes: e.quotes.size, statistics: e.statistics.size, citations: e.citations.size };
};

t.test('sources named in running text count as evidence, in en, pl and de', async (t) => {
  const en = kinds(
    '# Garden shed\n\nThe Timber Research Association estimates that 30 % of sheds rot at the floor first. ' +
      'The British Standard BS 8417 sets out which preservative class a ground-contact joist needs. ' +
      '"Most sheds fail from the bottom up," says Alan Pritchard, a carpenter who builds them.',
  );
  t.ok(en.quotes === 1 && en.statistics >= 1 && en.citations >= 2, `en ${JSON.stringify(en)}`);
  const pl = kinds(
    '# Szopa ogrodowa\n\nInstytut Techniki Budowlanej w raporcie z 2022 roku podaje, że 30 % szop gnije od podłogi. ' +
      'Norma PN-EN 335 określa klasy użytkowania drewna.',
    'szopa ogrodowa',
  );
  t.ok(pl.statistics >= 1 && pl.citations >= 1, `pl ${JSON.stringify(pl)}`);
  const de = kinds(
    '# Gartenhaus\n\nDer Holzverband schätzt, dass 30 % der Gartenhäuser zuerst am Boden faulen. ' +
      'Das Bundesinstitut für Bautechnik empfiehlt eine Holzschutzklasse für erdnahe Balken.',
    'gartenhaus',
  );
  t.ok(de.statistics >= 1 && de.citations >= 1, `de ${JSON.stringify(de)}`);
});

t.test('a figure or advice without a named source is not evidence', async (t) => {
  t.same(
    kinds('# Garden shed\n\nMost sheds rot at the floor after about 10 years. Experts recommend a good preservative.'),
    { quotes: 0, statistics: 0, citations: 0 },
  );
  const de = kinds('# Gartenhaus\n\nDie Bodenplatte misst 3 Meter. Der Boden sollte trocken bleiben.', 'gartenhaus');
  t.same(de, { quotes: 0, statistics: 0, citations: 0 }, 'German capitalised nouns are not names');
});

t.test('stuffing: the phrase twice in a sentence, or again later in its paragraph', async (t) => {
  const natural =
    '# How to paint a garden shed\n\nTo paint a garden shed, brush off dirt, let the wood dry for two days and use an exterior paint. ' +
    'The first coat soaks in; the second one gives the colour.\n\nPaint on a dry, overcast day.';
  const p = prep(natural, 'paint a garden shed');
  t.equal(gamingOf(p.doc, p.kw, p.an).stuffed, 0, 'one use per paragraph is natural');
  const stuffed =
    '# How to paint a garden shed\n\nTo paint a garden shed, brush off dirt and use an exterior paint, because to paint a garden shed well takes two coats. ' +
    'Anyone who wants to paint a garden shed should pick a dry week.';
  const q = prep(stuffed, 'paint a garden shed');
  const g = gamingOf(q.doc, q.kw, q.an);
  t.equal(g.stuffed, 3, 'both uses of the doubled sentence and the repeat in the paragraph');
  t.equal(g.stuffedSentences.size, 2);
  const question = prep(
    '# What is a shed?\n\nSo what is a shed, and what is a shed for? A shed is a small building for tools and bikes.',
    'what is a shed',
  );
  t.ok(gamingOf(question.doc, question.kw, question.an).stuffed >= 2, 'the whole query repeated, for a lone noun');
});

t.test('support credit grows with every item and never saturates', async (t) => {
  let prev = -1;
  for (let n = 0; n <= 20; n++) {
    const c = supportCredit(n, 900);
    t.ok(c > prev && c < 1, `${n} items: ${c.toFixed(3)}`);
    prev = c;
  }
  t.equal(supportCredit(6, 900), 0.5, 'half at one item per 150 words');
});

t.test('a source named with its document, or a body named with its place, is evidence (en, pl, de)', async (t) => {
  const en = kinds(
    "# Garden shed\n\nAcme's support article on shed kits lists the anchor bolts for each base. " +
      'The levelling guide on the Forestry Commission site uses a long straightedge. ' +
      'A timber-engineering team in Edinburgh measured 12 % more moisture in untreated floors.',
  );
  t.same(en, { quotes: 0, statistics: 1, citations: 2 }, `en ${JSON.stringify(en)}`);
  const pad = ' Szopa ogrodowa służy do przechowywania narzędzi i rowerów przez cały rok.';
  const pl = kinds(
    '# Szopa ogrodowa\n\nNa stronie Instytutu Techniki Budowlanej jest opis kotwienia podłogi. ' +
      'Zespół z Politechniki Gdańskiej zmierzył 12 % więcej wilgoci w podłogach bez impregnatu.' +
      pad,
    'szopa ogrodowa',
  );
  t.same(pl, { quotes: 0, statistics: 1, citations: 1 }, `pl ${JSON.stringify(pl)}`);
  const de = kinds(
    '# Gartenhaus\n\nEin Forschungsteam in Freiburg maß 12 % mehr Feuchte im Boden. ' +
      'Auf der Website des TÜV steht, wie man ein Gartenhaus verankert.',
    'gartenhaus',
  );
  t.same(de, { quotes: 0, statistics: 1, citations: 1 }, `de ${JSON.stringify(de)}`);
});

t.test('a document or a body without a name or a place is not evidence', async (t) => {
  t.same(
    kinds('# Garden shed\n\nThis page explains how to anchor a shed on 4 posts. Laboratories test 12 % of sheds.'),
    { quotes: 0, statistics: 0, citations: 0 },
  );
  t.same(
    kinds(
      '# Szopa ogrodowa\n\nMamy nadzieję, że ten artykuł pomógł Ci wybrać szopę. Z drugiej strony szopa stoi 10 lat.' +
        ' Szopa ogrodowa służy do przechowywania narzędzi i rowerów przez cały rok.',
      'szopa ogrodowa',
    ),
    { quotes: 0, statistics: 0, citations: 0 },
    'the capitalised "Ci" of address is no name',
  );
  t.same(
    kinds('# Gartenhaus\n\nAuf der Seite steht mehr. Labore in Deutschland prüfen es für 30 Euro.', 'gartenhaus'),
    { quotes: 0, statistics: 0, citations: 0 },
  );
});

t.test('a quotation over several sentences is support, in en, pl and de', async (t) => {
  const en = kinds(
    '# Garden shed\n\n"Felt roofs last ten years at most. After that, every storm finds the seams," says Alan Pritchard, a carpenter who builds them.',
  );
  t.equal(en.quotes, 2, `en ${JSON.stringify(en)}`);
  const pl = kinds(
    '# Szopa ogrodowa\n\n„Papa wytrzymuje najwyżej dziesięć lat. Potem każda burza znajduje szwy” – mówi dr n. med. ' +
      'Jan Nowak, konstruktor drewnianych budynków.',
    'szopa ogrodowa',
  );
  t.equal(
    pl.quotes,
    2,
    `pl: both quoted sentences, the name kept with the second ("dr n. med." ends no sentence) ${JSON.stringify(pl)}`,
  );
  const de = kinds(
    '# Gartenhaus\n\n„Dachpappe hält höchstens zehn Jahre. Danach findet jeder Sturm die Nähte“, sagt Anna Weber, Zimmerin.',
    'gartenhaus',
  );
  t.equal(de.quotes, 2, `de ${JSON.stringify(de)}`);
  const unattributed = kinds(
    '# Garden shed\n\n"Felt roofs last ten years at most. After that, every storm finds the seams." That is the rule of thumb.',
  );
  t.equal(unattributed.quotes, 0, 'a quotation nobody said is not support');
});

t.test('a publisher, an institution, an identifier or a maker’s document is a named source', async (t) => {
  const possessive = kinds(
    "# Garden shed\n\nOfgem's guidance on outbuildings reaches the same conclusion: insulate the floor first.",
  );
  t.equal(possessive.citations, 1, "a publisher's document in the possessive");
  const notDoc = kinds("# Garden shed\n\nAlan's shed has a felt roof that keeps the rain out of the tool corner.");
  t.same(notDoc, { quotes: 0, statistics: 0, citations: 0 }, 'a possessive without a document is no source');
  const opening = kinds(
    "# Garden shed\n\nAuthor's garden shed build log with moisture readings, kept over two winters.",
  );
  t.equal(opening.citations, 0, 'a capitalised common noun opening the sentence is no publisher');
  const de = kinds(
    '# Gartenhaus\n\nWie viel Feuchte ein Holzboden aufnimmt, hat das Max-Planck-Institut gemessen: bis zu 18 Prozent.',
    'gartenhaus',
  );
  t.ok(de.statistics === 1 && de.citations === 1, `an institution by its own word ${JSON.stringify(de)}`);
  const id = kinds(
    '# Gartenhaus\n\nMaßgeblich ist die Gütesicherung RAL-GZ 830 für imprägniertes Holz im Außenbereich.',
    'gartenhaus',
  );
  t.equal(id.citations, 1, 'a label by its identifier');
  const act = kinds('# Garden shed\n\nThe Directive 2010/31/EU sets energy rules for buildings, not for garden sheds.');
  t.equal(act.citations, 1, "an EU act's number");
  const maker = kinds(
    '# Szopa ogrodowa\n\nPodobnie podaje instrukcja montażu szop Biohort, która zaleca kotwienie do betonu.',
    'szopa ogrodowa',
  );
  t.equal(maker.citations, 1, "a maker's document that advises");
});

t.test('a paragraph that says nothing specific earns no term, however many SERP words it has', async (t) => {
  const page =
    '# Garden shed roof\n\nA garden shed roof needs felt with a 15 cm overlap and galvanised clout nails every 5 cm.\n\n' +
    'Felt overlap matters most at the ridge, where galvanised nails rust first.\n\n' +
    'Everybody has their own way of doing things, and people like to keep things simple. Some prefer options, ' +
    'others prefer choices, and there is no single answer that suits every person or every situation at all.';
  const p = prep(page, 'garden shed roof');
  const g = gamingOf(p.doc, p.kw, p.an);
  t.equal(g.unspecific.size, 2, 'both sentences of the generic paragraph');
  t.ok(
    [...g.unspecific].every((s) => s.text.includes('things') || s.text.includes('options')),
    'only the generic paragraph',
  );
});
