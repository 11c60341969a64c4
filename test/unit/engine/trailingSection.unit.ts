/**
 * No question or sub-topic section after the article's last line (blind review r30: on four walls
 * of text ending on a sign-off, a section added after the goodbye was rejected as noise or a slot
 * in the wrong place, each page touching the question in its own words). Over every poor article
 * of every set, with its SERP and without one. The question is still asked in place where a
 * sentence dodges it (the corpus-a rekuperacja page's cost question).
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import { loadSet, SETS, topicInput } from '../../eval/corpus.ts';

t.test('no new section follows the article', async (t) => {
  const wrong: string[] = [];
  let sections = 0;
  for (const set of SETS)
    for (const topic of loadSet(set))
      for (const serp of [true, false]) {
        const r = auditContent(topicInput(topic, topic.poor, serp));
        for (const x of r.recommendations) {
          if (!x.insertAt) continue;
          sections++;
          if (x.insertAt.placement !== 'before') wrong.push(`${set}/${topic.id} ${x.id}: ${x.title}`);
        }
      }
  t.same(wrong, []);
  t.ok(sections > 20, `${sections} sections placed before a heading or the closing lines`);
});

t.test('a wall of text gets its cost question where it dodges the price', async (t) => {
  const topic = loadSet('corpus-a').find((x) => x.id === 'co-to-jest-rekuperacja')!;
  const r = auditContent(topicInput(topic, topic.poor));
  const cost = r.recommendations.find((x) => x.evidence?.questions.some((q) => q.startsWith('Ile kosztuje')));
  t.match(cost?.before ?? '', /kosztown.*cena/u, 'the sentence on the installation price, not the one on savings');
  t.notOk(cost?.insertAt, 'in place');
});
