import t from 'tap';
import { clientText, cutAtWord, passageText, QUOTE_MAX } from '../../../services/reports/clientText.ts';

const SENTENCE =
  "In today's fast-paced world, many people wonder about descaling, and the answer depends on the water you use every day.";

t.test('a quotation cut mid-word by the engine is cut again at a word boundary', async (t) => {
  for (const [open, close] of <[string, string][]>[
    ['"', '"'],
    ['„', '”'],
    ['“', '”'],
  ]) {
    const engine = `${open}${SENTENCE.slice(0, 90)}${close} uses stock phrasing.`;
    const shown = clientText(engine);
    const inner = shown.slice(1, shown.indexOf(close, 1));
    t.ok(inner.length <= QUOTE_MAX + 1, `${open}: at most ${QUOTE_MAX} characters and the ellipsis`);
    t.match(inner, /\p{L}…$/u, `${open}: ends on a whole word, then the ellipsis`);
    t.ok(SENTENCE.startsWith(inner.slice(0, -1)), `${open}: the words themselves are untouched`);
    t.ok(SENTENCE.split(' ').includes(inner.slice(0, -1).split(' ').pop()!), `${open}: the last word is whole`);
    t.ok(shown.endsWith(`${close} uses stock phrasing.`), `${open}: the text after the quotation stays`);
  }
  t.equal(
    clientText('Answer first under "Step-by-step: descale the machine"'),
    'Answer first under "Step-by-step: descale the machine"',
    'a short quotation stays whole',
  );
  t.equal(cutAtWord('abcdefghij klmnop', 12), 'abcdefghij…');
  t.equal(cutAtWord('short', 12), 'short');
});

t.test('no markup reaches the client: tags go, their text and plain < and & stay', async (t) => {
  t.equal(
    clientText('Add a byline such as <p class="byline">By Anna Nowak</p> at the top'),
    'Add a byline such as By Anna Nowak at the top',
  );
  t.equal(clientText('<script>alert(1)</script>Keep 2 < 3 & go'), 'Keep 2 < 3 & go');
  t.equal(passageText('<p class="byline">By Anna Nowak, barista</p>'), 'By Anna Nowak, barista');
  t.equal(passageText('Brew & Co, 5 < 6'), 'Brew & Co, 5 < 6', 'text without markup is left as it is');
});
