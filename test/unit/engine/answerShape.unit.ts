import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * The answer asked of the author at a warm-up opening (issue 23): its shape follows what the query
 * asks. A definition only where the keyword asks what a thing is or names a lone thing; a phrase
 * that names an event or an aspect is asked for the answer plainly, never a definition (blind
 * review r10 rejected a definition asked of a news item; r16 missed the task). Made-up pages.
 */
const page = (subject: string) =>
  [
    `# ${subject}: everything you need to know`,
    'In today’s world, many people are curious about many different things and want to learn more.',
    `There is a lot to say about ${subject.toLowerCase()}, and in this article we will take a look at it.`,
    'It is always a good idea to read carefully, because the details can matter a great deal in the end.',
  ].join('\n\n');

const openingTask = (keyword: string, subject: string) => {
  const content = page(subject);
  return auditContent({ content, url: null, keyword, language: 'en', benchmark: null }).recommendations.find(
    (r) =>
      r.authorDataOnly &&
      r.before &&
      content.indexOf(r.before) >= 0 &&
      content.indexOf(r.before) < content.indexOf('It is always'),
  );
};

t.test('"what is …" and a lone noun are asked for a definition', async (t) => {
  t.match(openingTask('what is a heat exchanger', 'Heat exchanger')?.task ?? '', /what it is/);
  t.match(openingTask('exchanger', 'Heat exchanger')?.task ?? '', /what it is/);
});

t.test(
  'a phrase naming an event or an aspect gets no definition task: it is asked for the answer plainly',
  async (t) => {
    const task = openingTask('harbour festival fireworks cancelled', 'Harbour festival fireworks')?.task ?? '';
    t.notMatch(task, /what it is/);
    t.match(
      task,
      /said plainly \(the thing itself, a number, a date or a name\)/,
      'r16: a warm-up opening gets its task',
    );
    t.match(task, /This sentence warms up \("/, 'at the opening, quoting its warm-up');
  },
);

t.test("the warm-up is quoted as the sentence writes it, in the language's quotation marks", async (t) => {
  const content = [
    '# Wärmetauscher: alles, was Sie wissen müssen',
    'In diesem Artikel möchten wir uns dem Thema einmal ausführlich widmen, denn viele Menschen fragen danach.',
    'Es gibt dazu viel zu sagen, und wir schauen uns das Ganze in Ruhe und Schritt für Schritt gemeinsam an.',
    'Am Ende wissen Sie hoffentlich mehr als vorher und können selbst entscheiden, was für Sie wichtig ist.',
  ].join('\n\n');
  const r = auditContent({ content, url: null, keyword: 'was ist ein wärmetauscher', language: 'de', benchmark: null });
  const task = r.recommendations.find((x) => x.authorDataOnly && x.before?.startsWith('In diesem Artikel'));
  t.match(task?.task ?? '', /„In diesem Artikel“/);
  t.equal(task?.evidence?.figure, '„In diesem Artikel“');
});

t.test(
  'an opening that asks the query back and then talks about the question warms up: the answer goes there',
  async (t) => {
    const opening = (next: string) =>
      [
        '# Heat pump or gas boiler: a comparison',
        `Winters are long, and heating bills keep arriving. Heat pump or gas boiler? ${next}`,
        'Both heat a home, and both need a place in the house, a supply and some upkeep over their life.',
        'The details depend on the building, and a visit from an installer settles most of them.',
      ].join('\n\n');
    const taskFor = (content: string) =>
      auditContent({
        content,
        url: null,
        keyword: 'heat pump or gas boiler',
        language: 'en',
        benchmark: null,
      }).recommendations.find((r) => r.authorDataOnly && r.dimension === 'bluf');
    const warmUp = taskFor(opening('This is a question many homeowners ask, and it is not easy to answer.'));
    t.match(warmUp?.task ?? '', /\("This is a question"\)/, 'the warm-up quoted as written');
    t.equal(
      warmUp?.before,
      'This is a question many homeowners ask, and it is not easy to answer.',
      'asked where the answer belongs: the sentence after the question',
    );
    const answered = taskFor(opening('A heat pump costs less to run in a well-insulated house built after 2000.'));
    t.equal(answered, undefined, 'a question answered at once is no warm-up');
  },
);
