/**
 * Short generic paragraphs (issue 24: filler never raises CQS). Filler written as two short
 * sentences between the page's own paragraphs is filler; a short paragraph that leans on its
 * neighbours (the answer to a question, the lead-in of a list, a labelled note) or reports what the
 * writer did is not. Made-up pages on garden sheds.
 */
import t from 'tap';
import { gamingOf } from '../../../services/engine/dimensions/gaming.ts';
import { fillerPenalty } from '../../../services/engine/dimensions/srl.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const KEYWORD = 'paint a garden shed';
const body =
  'To paint a garden shed, brush off loose dirt, let the timber dry for two days and use an exterior ' +
  'wood paint with a fungicide. The first coat soaks into bare boards; the second one gives the colour ' +
  'and seals the grain against rain for about five years.\n\n' +
  'Work on a dry, overcast day between 10 and 25 °C, so the paint neither skins over in the sun nor ' +
  'stays tacky overnight. Start under the eaves and work down in whole board lengths to avoid lap marks.';

const fillerOf = (inserted: string, before = '') => {
  const [first, second] = body.split('\n\n');
  const content = `# How to paint a garden shed\n\n${first}\n\n${before}${inserted}\n\n${second}`;
  const p = prepareDocument({ content, url: null, keyword: KEYWORD, format: 'markdown' });
  const g = gamingOf(p.doc, p.kw, p.an);
  return p.doc.sentences.filter((s) => inserted.includes(s.text)).some((s) => g.filler.has(s) || g.unspecific.has(s));
};

t.test('two short sentences that say nothing, between paragraphs, are filler (en, pl)', async (t) => {
  t.ok(fillerOf('Every garden is different and everyone has their own taste. In the end it is always worth it.'));
  const pl = prepareDocument({
    content:
      '# Jak pomalować szopę\n\nSzopę maluje się farbą do drewna z fungicydem po dwóch dniach suszenia. ' +
      'Pierwsza warstwa wsiąka w deski, druga daje kolor i chroni drewno przez około pięć lat.\n\n' +
      'Każdy ogród jest inny i każdy ma swój gust. Warto zawsze robić to, co daje radość.\n\n' +
      'Maluj w suchy, pochmurny dzień przy 10–25 °C, zaczynając od góry i prowadząc pędzel wzdłuż desek.',
    url: null,
    keyword: 'jak pomalować szopę',
    format: 'markdown',
  });
  const g = gamingOf(pl.doc, pl.kw, pl.an);
  t.ok(
    pl.doc.sentences.some((s) => s.text.startsWith('Każdy ogród') && (g.filler.has(s) || g.unspecific.has(s))),
    'pl',
  );
});

t.test('a short paragraph that leans on its neighbours or reports the writer is not filler', async (t) => {
  const generic = 'Every garden is different and everyone has their own taste, so it is always worth it';
  t.notOk(fillerOf(`${generic}.`, 'Is it worth painting every year?\n\n'), 'the answer to a question just asked');
  t.notOk(fillerOf(`${generic}:`), 'the lead-in of a list');
  t.notOk(fillerOf(`Note: ${generic.toLowerCase()}.`), 'a labelled note');
  t.notOk(
    fillerOf('We paid for every tin ourselves and no maker saw this page. Everyone has their own taste, always.'),
    'the writer reporting what they did (a disclosure)',
  );
});

t.test(
  'a German step addressed to the reader ("Lösen Sie …") is never filler, however many function words',
  async (t) => {
    const step =
      'Bei einer Holzverkleidung lösen Sie zuerst die Leiste, die den Dachrand an der Traufe hält. Dann ' +
      'hängen Sie die Regenrinne aus und nehmen die Blende ab, damit der Pinsel auch an die Kante der ' +
      'Bretter kommt, die sonst im Schatten der Rinne bleibt.';
    const content =
      '# Gartenhaus streichen\n\nEin Gartenhaus streichen Sie am besten an einem trockenen Tag bei 10 bis 25 °C mit ' +
      'einer Holzschutzlasur. Die erste Schicht zieht ein, die zweite gibt die Farbe.\n\n' +
      `${step}\n\nStreichen Sie von oben nach unten in ganzen Brettlängen, damit keine Ansätze entstehen.`;
    const p = prepareDocument({ content, url: null, keyword: 'gartenhaus streichen', format: 'markdown' });
    const g = gamingOf(p.doc, p.kw, p.an);
    const mine = p.doc.sentences.filter((s) => step.includes(s.text));
    t.equal(mine.length, 2);
    t.notOk(
      mine.some((s) => g.filler.has(s)),
      'the step is text',
    );
  },
);

t.test("srl's filler penalty is a ramp: one filler sentence more or less moves it a little", async (t) => {
  for (const share of [0.03, 0.04, 0.05, 0.1, 0.15]) {
    const step = fillerPenalty(share + 0.01) - fillerPenalty(share - 0.01);
    t.ok(step >= 0 && step <= 0.31, `${share}: ${step.toFixed(2)}`);
  }
  t.equal(fillerPenalty(0.02), 0, 'one filler sentence in fifty costs nothing');
  t.equal(fillerPenalty(0.3), 2, 'at most two points');
});
