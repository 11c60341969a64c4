/**
 * The page's own defects come before questions to research when author tasks are capped (blind
 * review r26: "the title, which repeats the keyword three times, is the worst stuffing, and the
 * tool flagged it on other pages but not here"; r27: the sections that took its place were the
 * weakest tasks shown). And a stuffed opening sentence is answer-first's: the keyword-rewrite task
 * goes to another sentence, where it took the answer-first task's place before (r26). Pages of
 * corpus-a, a tuning set.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import { MAX_TASKS } from '../../../services/engine/recommendations.ts';
import { loadSet, topicInput } from '../../eval/corpus.ts';

const auditPoor = (id: string) => {
  const topic = loadSet('corpus-a').find((x) => x.id === id)!;
  const r = auditContent(topicInput(topic, topic.poor));
  return { r, h1: /^#\s+(.+)$/m.exec(topic.poor)![1]!, first: topic.poor.split('\n\n')[1]! };
};

t.test('a page with more tasks than the cap keeps its stuffed-title and answer-first tasks', async (t) => {
  const { r, h1 } = auditPoor('co-to-jest-rekuperacja');
  const tasks = r.recommendations.filter((x) => x.authorDataOnly);
  t.ok(
    tasks.some((x) => x.dimension === 'density' && x.before === h1),
    'the title task',
  );
  t.ok(
    tasks.some((x) => x.dimension === 'bluf'),
    'the answer-first task',
  );
  t.equal(tasks.length, MAX_TASKS, 'a question to research gave way');
});

t.test('the keyword-rewrite task leaves the opening sentence to answer-first', async (t) => {
  const { r, first } = auditPoor('tablet-vs-laptop');
  const opening = first.slice(0, 60);
  const bluf = r.recommendations.find((x) => x.dimension === 'bluf');
  t.ok(bluf?.before?.startsWith(opening), 'answer-first on the opening');
  t.notOk(
    r.recommendations.some((x) => x.dimension === 'density' && x.before?.startsWith(opening)),
    'no keyword task there',
  );
});
