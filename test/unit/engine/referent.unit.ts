/**
 * The referent mechanism (referent.ts) on every topic of the evaluation corpus's tuning half: the
 * SERP's other-referent pages are its outliers and nothing else is; the strong and poor articles
 * are about the consensus, the other article is not. The held-out half is measured by `npm run
 * eval` only, never asserted here (it must not steer the mechanism).
 */
import t from 'tap';
import { buildBench } from '../../../services/engine/benchmark.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { judgeReferent } from '../../../services/engine/referent.ts';
import { loadHalf } from '../../eval/corpus.ts';

for (const topic of loadHalf('tuning')) {
  t.test(topic.id, async (t) => {
    const p = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword });
    const model = buildBench(topic.serp, p.doc, p.kw, p.an, p.lex).referent;
    t.ok(model, 'a SERP of 5 pages gives a model');
    const expected = topic.serp.competitors
      .map((c, i) => (topic.otherUrls.includes(c.url) ? i : -1))
      .filter((i) => i >= 0);
    t.same(model!.outliers, expected, 'the outliers are the other-referent pages');
    for (const [name, want] of [
      ['strong', 'same'],
      ['poor', 'same'],
      ['other', 'other'],
    ] as const) {
      const doc = prepareDocument({ content: topic[name], url: null, keyword: topic.keyword }).doc;
      t.equal(judgeReferent(model, doc).status, want, `${name} article`);
    }
  });
}

t.test('without a SERP the referent is unknown', async (t) => {
  const topic = loadHalf('tuning')[0]!;
  const doc = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword }).doc;
  t.same(judgeReferent(null, doc), { status: 'unknown' });
});
