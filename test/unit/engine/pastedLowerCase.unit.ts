/**
 * A query pasted in lower case where the page writes one of its words with a capital (issue 24:
 * stuffing never raises CQS). A writer keeps a name's capital (in German, a noun's); a query
 * copied from a search box has none. Made-up pages on a ferry strike in a port town and on
 * changing a door handle.
 */
import t from 'tap';
import { gamingOf } from '../../../services/engine/dimensions/gaming.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const KEYWORD = 'harwich ferry strike';
const report =
  '# Ferry crews walk out in Harwich\n\n' +
  'About 400 deck and catering staff stopped work at 6 am on Tuesday, and no sailings left Harwich for ' +
  'the Hook of Holland before noon. The union said the 24-hour strike is over a pay offer of 3.1 per ' +
  'cent.\n\n' +
  'The operator said it would refund every cancelled booking and rebook passengers on the two evening ' +
  'crossings. Port staff in Harwich expect queues of lorries on the A120 until Wednesday morning.';

const stuffedOf = (content: string, keyword = KEYWORD) => {
  const p = prepareDocument({ content, url: null, keyword, format: 'markdown' });
  const g = gamingOf(p.doc, p.kw, p.an);
  return p.doc.sentences.filter((s) => g.stuffedSentences.has(s)).map((s) => s.text);
};

const appended = (text: string, sentences: string[]) =>
  text
    .split('\n\n')
    .map((para, i) => (i === 0 ? para : `${para} ${sentences[i - 1] ?? ''}`.trim()))
    .join('\n\n');

t.test('the query pasted in lower case on a page that writes the name with a capital is stuffing', async (t) => {
  const pasted = [
    'That is the key fact about the harwich ferry strike.',
    'Expect delays from the harwich ferry strike.',
  ];
  t.same(stuffedOf(appended(report, pasted)), pasted);
  t.same(stuffedOf(report), [], 'the report as written has none');
});

t.test('a page that never writes the name with a capital, or writes the word as a kind, is left alone', async (t) => {
  const lower = report.replace(/Harwich/g, 'harwich');
  t.same(stuffedOf(appended(lower, ['Talks on the harwich ferry strike resume on Friday.'])), []);
  // "Puma concolor" twice on a page that says "puma" throughout: the word is the subject's kind.
  const cat =
    '# Puma or cougar\n\nThe puma and the cougar are one cat, Puma concolor, and a puma can jump six metres. ' +
    'Zoologists call it Puma concolor; hunters say cougar.\n\n' +
    'If you are weighing up puma vs cougar, there is no contest: it is one cat. The puma ranges from ' +
    'Canada to Chile.';
  t.same(stuffedOf(cat, 'puma vs cougar'), []);
});

t.test('the query inside a compound is not the query pasted (German)', async (t) => {
  const de =
    '# Türgriff tauschen\n\nEinen Türgriff tauschen Sie in zehn Minuten: die Madenschraube lösen, den Griff ' +
    'abziehen und den neuen mit 2 Nm festziehen. Der Griff sitzt auf einem 8-mm-Vierkant.\n\n' +
    'Ein Griff aus Edelstahl hält länger als einer aus Zinkdruckguss, kostet aber rund 30 Euro mehr.';
  t.same(stuffedOf(de, 'griff tauschen'), []);
  // The same words written lower case, as typed, stand out against "Griff" in every other sentence.
  const pasted = 'Das ist alles zum griff tauschen.';
  t.same(stuffedOf(`${de} ${pasted}`, 'griff tauschen'), [pasted]);
});
