/**
 * bluf reads a section's answer where a dense first sentence states it (issue 24, item 3): a long
 * sentence that opens with its answer and goes on, after a colon or a dash, to its evidence answers
 * first; one that only gets to its point late does not. A test's report of what it measured is an
 * answer too (past-tense answer verbs). Texts written for this test.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';

const blufOf = (content: string, keyword = 'best garden hose') =>
  scoreContent({ content, format: 'markdown', url: null, keyword }).outcomes.find((o) => o.id === 'bluf')!;

const intro = 'The best garden hose is the Lindqvist Flex 25: it costs 49 euros and never kinked in 30 days of use.';
const page = (first: string) =>
  `# Best garden hose\n\n${intro}\n\n## Lindqvist Flex 25\n\n${first} It comes in three lengths.\n`;

t.test('a long first sentence whose opening clause answers the heading answers first', async (t) => {
  const dense = page(
    'The Lindqvist Flex 25 is the hose to buy for most gardens: after 30 days on a gravel path its outer layer showed no wear at all and its brass couplings never dripped once.',
  );
  const late = page(
    'After thirty days of dragging every model we could find over a gravel path in the sun and the rain, and after talking to the neighbours about theirs, we finally chose the Lindqvist Flex 25.',
  );
  t.ok(
    blufOf(dense).score > blufOf(late).score,
    `answer, then evidence: ${blufOf(dense).score}; late: ${blufOf(late).score}`,
  );
  t.notOk(
    blufOf(dense).findings.some((f) => f.title.includes('Lindqvist')),
    'no "answer first" finding for the dense section',
  );
});

t.test('a test that reports what it measured, in the past tense, answers in its intro', async (t) => {
  const measured = (verb: string) =>
    blufOf(
      `# Pompa ciepła – test\n\nZ pięciu pomp ciepła najlepiej wypadła Termo 8: ogrzanie domu ${verb} 3 870 zł rocznie.\n\n## Wyniki\n\nTermo 8 zużyła najmniej prądu.\n`,
      'pompa ciepła opinie',
    ).score;
  t.ok(
    measured('kosztowało') > measured('zajęło'),
    `kosztowało ${measured('kosztowało')}, zajęło ${measured('zajęło')}`,
  );
});
