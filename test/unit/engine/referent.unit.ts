/**
 * The referent mechanism (referent.ts) on every topic of the evaluation corpus's tuning half: the
 * SERP's other-referent pages are its outliers and nothing else is; the strong and poor articles
 * are about the consensus, the other article is not. The held-out half is measured by `npm run
 * eval` only, never asserted here (it must not steer the mechanism).
 */
import t from 'tap';
import { buildBench } from '../../../services/engine/benchmark.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { judgeReferent, minorityOf } from '../../../services/engine/referent.ts';
import { loadHalf, loadSet, TUNING_SETS } from '../../eval/corpus.ts';

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

/**
 * A small SERP (issue 24): three results, the audited strong article itself, one intended page and
 * the other-referent page. The majority (two of three) decides; the other page is left out, the
 * other article judged another referent, the strong and poor ones not.
 */
for (const topic of loadHalf('tuning')) {
  t.test(`${topic.id}: a SERP of three`, async (t) => {
    const intended = topic.serp.competitors.find((c) => !topic.otherUrls.includes(c.url))!;
    const other = topic.serp.competitors.find((c) => topic.otherUrls.includes(c.url))!;
    const serp = {
      ...topic.serp,
      competitors: [{ url: 'https://self.example/article', title: null, text: topic.strong }, other, intended],
    };
    const p = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword });
    const bench = buildBench(serp, p.doc, p.kw, p.an, p.lex);
    t.same(bench.referent!.outliers, [1], 'the other-referent page is the minority');
    // The reason is in the report's language (Polish content: Polish, German content: German).
    t.match(
      bench.excluded.find((e) => e.url === other.url)?.reason ?? '',
      /^(different referent: it is about|inne znaczenie frazy: strona mówi o tym:|andere Bedeutung: Die Seite handelt von) \S/,
    );
    for (const [name, want] of [
      ['strong', 'same'],
      ['poor', 'same'],
      ['other', 'other'],
    ] as const) {
      const doc = prepareDocument({ content: topic[name], url: null, keyword: topic.keyword }).doc;
      t.equal(judgeReferent(bench.referent, doc).status, want, `${name} article`);
    }
  });
}

t.test('the minority: a strict minority far from the majority, else nobody', async (t) => {
  const two = [
    [1, 0.3, 0.3, 0.02, 0.3],
    [0.3, 1, 0.3, 0.03, 0.3],
    [0.3, 0.3, 1, 0.01, 0.3],
    [0.02, 0.03, 0.01, 1, 0.02],
    [0.3, 0.3, 0.3, 0.02, 1],
  ];
  t.same(minorityOf(two), [3]);
  const close = two.map((r, i) => r.map((x, j) => (i === j ? 1 : i === 3 || j === 3 ? 0.25 : x)));
  t.same(minorityOf(close), [], 'a page nearly as close as the others is no other referent');
  const tie = [
    [1, 0.4, 0.01, 0.01],
    [0.4, 1, 0.01, 0.01],
    [0.01, 0.01, 1, 0.4],
    [0.01, 0.01, 0.4, 1],
  ];
  t.same(minorityOf(tie), [], 'two equal groups: no majority, nothing decided');
});

/**
 * corpus-a (three results each: strong, weak, other). The weak page is nearly all keyword-stuffed
 * sentences, so it does not vote; the strong page and the other meaning are one against one, and
 * the People Also Ask questions and related searches break the tie (issue 12). The other page is
 * left out, the other article judged another referent, no intended page taken for the other.
 */
for (const topic of loadSet('corpus-a')) {
  t.test(`corpus-a ${topic.id}: the other meaning left out, no intended page`, async (t) => {
    const p = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword });
    const bench = buildBench(topic.serp, p.doc, p.kw, p.an, p.lex);
    t.same(
      bench.excluded.map((e) => e.url),
      topic.otherUrls,
      'the other-referent result alone is left out',
    );
    for (const [name, want] of [
      ['strong', 'same'],
      ['poor', 'same'],
      ['other', 'other'],
    ] as const) {
      const doc = prepareDocument({ content: topic[name], url: null, keyword: topic.keyword }).doc;
      t.equal(judgeReferent(bench.referent, doc).status, want, `${name} article`);
    }
    // Without questions the stuffed page votes again, as before: nothing intended is left out.
    const bare = buildBench({ ...topic.serp, paa: [], related: [] }, p.doc, p.kw, p.an, p.lex);
    t.same(
      bare.excluded.filter((e) => !topic.otherUrls.includes(e.url)),
      [],
      'without questions: no intended result left out',
    );
  });
}

/**
 * Precision on SERPs built from each tuning topic: with only intended results (the other page
 * taken out of the five) nothing is left out and no intended article is judged another referent;
 * with three results where the third is the topic's poor page (stuffed in part), no intended page
 * is left out either.
 */
for (const topic of loadHalf('tuning')) {
  t.test(`${topic.id}: only intended results, or a poor one among three`, async (t) => {
    const p = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword });
    const intended = topic.serp.competitors.filter((c) => !topic.otherUrls.includes(c.url));
    const agreed = buildBench({ ...topic.serp, competitors: intended }, p.doc, p.kw, p.an, p.lex);
    t.same(agreed.excluded, [], 'four intended results: none left out');
    for (const name of ['strong', 'poor'] as const) {
      const doc = prepareDocument({ content: topic[name], url: null, keyword: topic.keyword }).doc;
      t.not(judgeReferent(agreed.referent, doc).status, 'other', `${name} article`);
    }
    const other = topic.serp.competitors.find((c) => topic.otherUrls.includes(c.url))!;
    const self = { url: 'https://self.example/article', title: null, text: topic.strong };
    const poor = { url: 'https://poor.example/article', title: null, text: topic.poor };
    const withPoor = buildBench({ ...topic.serp, competitors: [self, other, poor] }, p.doc, p.kw, p.an, p.lex);
    t.same(
      withPoor.excluded.filter((e) => e.url !== other.url),
      [],
      'strong, other, poor: no intended result left out',
    );
  });
}

/**
 * The same precision on the other tuning sets (seven results each), counted instead of asserted per
 * topic: with only intended results, a thin generic page (few figures, generic sentences, little
 * vocabulary of its own) was the SERP's vocabulary minority on some topics, was left out as
 * "another referent", and the poor article, as generic, was judged with it. Since a page must say
 * enough (SAYS_ENOUGH: its vocabulary at least 0.9 x the results' median, with four results or
 * more) that is rare; three results have no median, and there the thin poor page is still the odd
 * one out. A ratchet: the counts may fall, never rise, except when a new set is added (corpus-i
 * brought three strong/other/poor cases); zero is the aim (TODO).
 */
t.test('intended-only SERPs of the other tuning sets: thin pages set apart (ratchet)', async (t) => {
  const topics = TUNING_SETS.filter((s) => s !== 'tuning' && s !== 'corpus-a').flatMap((s) => loadSet(s));
  let leftOut = 0;
  let poorOther = 0;
  let withPoor = 0;
  for (const topic of topics) {
    const p = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword });
    const intended = topic.serp.competitors.filter((c) => !topic.otherUrls.includes(c.url));
    const agreed = buildBench({ ...topic.serp, competitors: intended }, p.doc, p.kw, p.an, p.lex);
    if (agreed.excluded.length) leftOut++;
    const poor = prepareDocument({ content: topic.poor, url: null, keyword: topic.keyword }).doc;
    if (judgeReferent(agreed.referent, poor).status === 'other') poorOther++;
    const other = topic.serp.competitors.find((c) => topic.otherUrls.includes(c.url))!;
    const self = { url: 'https://self.example/article', title: null, text: topic.strong };
    const poorPage = { url: 'https://poor.example/article', title: null, text: topic.poor };
    const three = buildBench({ ...topic.serp, competitors: [self, other, poorPage] }, p.doc, p.kw, p.an, p.lex);
    if (three.excluded.some((e) => e.url !== other.url)) withPoor++;
  }
  t.ok(leftOut <= 2, `an intended page left out on ${leftOut} of ${topics.length} (at most 2)`);
  t.ok(poorOther <= 1, `the poor article judged another referent on ${poorOther} (at most 1)`);
  t.ok(withPoor <= 7, `strong, other, poor: an intended page left out on ${withPoor} (at most 7)`);
  t.equal(leftOut + poorOther + withPoor, 0, 'none', { todo: 'issue 24: a thin generic page is no other referent' });
});
