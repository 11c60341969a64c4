/**
 * An opening that talks around its subject gets the answer asked of the author where it belongs
 * (issue 23, recall on poor pages; blind reviews r12 and corpus-h): one whose first statement does
 * not name the subject while its first 60 words give no figure, stock phrase or not (the subject
 * named only later in them, too), and one that opens on a stock welcome ("you
 * have come to the right place"). Never on an opening that names the subject, never on a byline
 * line, never where a place in the keyword leaves the answer's shape open. Texts written for this test.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

const filler = [
  'Summer evenings outside are a joy for the whole family.',
  'Many households spend more time in the open air every year.',
  'There are many things to think about before spending money.',
  'Quality matters, and so does value for money in the long run.',
];
const body =
  '## Our picks\n\nThe Lindqvist Flex garden hose costs 49 euros and never kinked in 30 days on gravel. ' +
  'The Orsa Basic garden hose costs 19 euros and cracked at the coupling after two weeks.\n';
const answerTasks = (content: string, keyword = 'best garden hose') =>
  auditContent({ content, url: null, keyword, language: 'en', benchmark: null }).recommendations.filter((r) =>
    /^bluf: (the first 60 words|the opening sentence)/u.test(r.evidence?.rule ?? ''),
  );

t.test(
  'an opening that never names the subject nor gives a figure: the task stands at its first statement',
  async (t) => {
    const tasks = answerTasks(`# Best garden hose\n\n*By Admin | Posted in Home*\n\n${filler.join(' ')}\n\n${body}`);
    t.equal(tasks.length, 1);
    t.equal(tasks[0]?.before, filler[0], 'at the first statement, not the byline line');
    t.ok(tasks[0]?.authorDataOnly, 'an author task');
  },
);

t.test('an opening statement that talks around the subject named only after it gets the task too', async (t) => {
  const late = `# Best garden hose\n\n${filler[0]} ${filler[1]} That is why a good garden hose matters.\n\n${body}`;
  const tasks = answerTasks(late);
  t.equal(tasks.length, 1);
  t.equal(tasks[0]?.before, filler[0]);
  t.match(tasks[0]?.task ?? '', /This opening sentence does not name/);
  const figure = `# Best garden hose\n\n${filler[0]} A good garden hose lasts 10 years.\n\n${body}`;
  t.same(answerTasks(figure), [], 'a figure in the opening words');
});

t.test('an opening statement that names the subject only after a long lead gets the task', async (t) => {
  const lead =
    'Outdoor work is something that has been enjoyed by many people for a very long time in many different places, which is why so many of them ask about the best garden hose.';
  const tasks = answerTasks(`# Best garden hose\n\n${lead} ${filler[1]}\n\n${body}`);
  t.equal(tasks.length, 1);
  t.equal(tasks[0]?.before, lead);
  t.match(tasks[0]?.task ?? '', /only after a long lead-up/, 'the task says it names the subject late');
  const early =
    'The best garden hose is the one that reaches the far corner of the garden without kinks, which is what most people ask about.';
  t.same(answerTasks(`# Best garden hose\n\n${early} ${filler[1]}\n\n${body}`), [], 'named in its first words');
});

t.test('a stock welcome is a warm-up wherever it stands in the first 60 words', async (t) => {
  const tasks = answerTasks(
    `# Best garden hose\n\nAre you looking for the best garden hose? You have come to the right place! ${filler[2]}\n\n${body}`,
  );
  t.equal(tasks.length, 1);
  t.equal(tasks[0]?.before, 'You have come to the right place!');
});

t.test('no task where the opening names the subject, or a place leaves the shape open', async (t) => {
  t.same(
    answerTasks(`# Best garden hose\n\nA garden hose for most gardens: the Lindqvist Flex. ${filler[0]}\n\n${body}`),
    [],
  );
  const local = `# Hose repair Leeds\n\n${filler[0]} Leeds has more gardens than most cities. ${filler[1]}\n\n${body}We repair hoses in Leeds.\n`;
  t.same(answerTasks(local, 'hose repair leeds'), [], 'a place in the keyword');
});
