import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { applyChange } from '../../../services/engine/apply.ts';
import { auditContent, runAudit } from '../../../services/engine/audit.ts';
import { AuditResultV1Schema } from '../../../services/engine/resultSchema.ts';
import type { Change, EngineResult, Recommendation } from '../../../services/engine/types.ts';
import { articles, byId, inputOf, read } from '../../fixtures/engine/corpus.ts';
import { sampleResultMeta } from '../../helpers/resultMeta.ts';

const dim = (r: EngineResult, id: string) => r.dimensions.find((d) => d.id === id)!.score;
const code = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? 'thrown';
  }
};
const changeOf = (r: Recommendation): Change =>
  r.insertAt
    ? { kind: 'insert', placement: r.insertAt.placement, anchor: r.insertAt.anchor, after: r.after }
    : { kind: 'replace', before: r.before, after: r.after };

t.test('keyword stuffing lowers density', async (t) => {
  const a = byId('en-glossary-compound-interest');
  const content = read('strong', a);
  let n = 0;
  const stuffed = content.replace(
    /\n\n(?=## )/g,
    () => `\n\nCompound interest, in part ${++n}, is compound interest that compound interest earns.\n\n`,
  );
  const before = runAudit(inputOf('strong', a));
  const after = runAudit({ ...inputOf('strong', a), content: stuffed });
  t.ok(
    dim(after.result, 'density') < dim(before.result, 'density'),
    `${dim(after.result, 'density')} < ${dim(before.result, 'density')}`,
  );
  t.ok(after.scored.keywordDensity > 3);
  if (after.scored.keywordDensity > 4) t.ok(after.result.scores.cqs! <= 60, 'stuffing over 4% caps CQS at 60');
  const problems = after.result.dimensions.find((d) => d.id === 'density')!.problems;
  t.ok(
    problems.some((p) => p.actionType === 'remove' && p.impact === 'high'),
    'names the stuffed sentences as a high-impact problem',
  );
});

t.test('moving the answer to the top raises bluf', async (t) => {
  const a = byId('pl-howto-zakwas');
  const content = read('strong', a);
  const paras = content.split('\n\n');
  const answer = paras[1]!;
  const moved = [paras[0], ...paras.slice(2, 4), answer, ...paras.slice(4)].join('\n\n');
  const top = auditContent({ ...inputOf('strong', a) });
  const buried = auditContent({ ...inputOf('strong', a), content: moved });
  t.ok(
    dim(top, 'bluf') > dim(buried, 'bluf'),
    `answer first ${dim(top, 'bluf')} > answer later ${dim(buried, 'bluf')}`,
  );
});

t.test("applying a recommendation's change raises CQS by its estimatedCqsDelta", async (t) => {
  for (const id of [
    'en-howto-descale',
    'pl-listicle-rosliny',
    'en-listicle-running-shoes',
    'de-howto-balkonkraftwerk',
  ]) {
    const a = byId(id);
    const input = inputOf('weak', a);
    const run = runAudit(input);
    t.ok(run.result.recommendations.length > 0, `${id} has recommendations`);
    for (const rec of run.result.recommendations) {
      const changed = applyChange(input.content, run.scored.doc.format, changeOf(rec));
      const after = auditContent({ ...input, content: changed });
      const gain = after.scores.cqs! - run.result.scores.cqs!;
      t.ok(
        Math.abs(gain - rec.estimatedCqsDelta) <= 1,
        `${id} ${rec.id} ${rec.dimension}: measured +${gain}, estimated +${rec.estimatedCqsDelta}`,
      );
    }
  }
});

t.test('the same input gives byte-identical output', async (t) => {
  for (const id of ['en-listicle-running-shoes', 'pl-product-ekspres', 'en-review-ereader']) {
    const a = byId(id);
    t.equal(JSON.stringify(auditContent(inputOf('weak', a))), JSON.stringify(auditContent(inputOf('weak', a))));
    t.equal(
      JSON.stringify(auditContent({ ...inputOf('strong', a), keyword: null })),
      JSON.stringify(auditContent({ ...inputOf('strong', a), keyword: null })),
    );
  }
});

t.test('keyword auto-detection for Polish, English and German', async (t) => {
  const cases: [string, RegExp][] = [
    ['en-howto-descale', /espresso machine/],
    ['pl-howto-zakwas', /zakwas na chleb/],
    ['de-howto-balkonkraftwerk', /balkonkraftwerk/i],
    ['en-glossary-compound-interest', /compound interest/],
  ];
  for (const [id, re] of cases) {
    const r = auditContent({ ...inputOf('strong', byId(id)), keyword: null });
    t.match(r.input.keyword, re, `${id}: detected "${r.input.keyword}"`);
  }
});

t.test('auto-detected keywords are multi-word noun phrases holding the head noun', async (t) => {
  // The head noun of each article's title phrase. The mortgage comparison ("Kredyt o stałej czy
  // zmiennej stopie?") compares rate types, so its rate ("stopa") counts as well as "kredyt".
  const head: Record<string, RegExp> = {
    'en-howto-descale': /\bmachine\b/,
    'en-glossary-compound-interest': /\binterest\b/,
    'en-comparison-heat-pump': /\bpump\b/,
    'en-listicle-running-shoes': /\bshoes\b/,
    'en-review-ereader': /\b(kindle|paperwhite)\b/,
    'en-news-library': /\blibrary\b/,
    'pl-howto-zakwas': /\bzakwas/,
    'pl-comparison-kredyt': /\b(kredyt|stop)/,
    'pl-listicle-rosliny': /\brośli/,
    'pl-product-ekspres': /\bekspres/,
    'pl-news-rowery': /\b(dróg|drogi|drog)/,
    'de-howto-balkonkraftwerk': /\bbalkonkraftwerk/,
  };
  for (const a of articles) {
    for (const v of ['strong', 'weak'] as const) {
      const kw = auditContent({ ...inputOf(v, a), keyword: null }).input.keyword!;
      t.match(kw, head[a.id]!, `${v} ${a.id}: "${kw}" holds the head noun`);
      // Every title here has a multi-word noun phrase (German "Balkonkraftwerk" is one compound word,
      // so there the phrase may be the compound with its verb).
      t.ok(kw.split(/\s+/).length >= 2, `${v} ${a.id}: "${kw}" has at least two words`);
      t.ok(kw.split(/\s+/).length <= 6, 'at most four content words and two function words');
    }
  }
});

t.test('keyword_required when no keyword is given and none can be detected', async (t) => {
  const words = Array.from(
    { length: 60 },
    (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}x${i}`,
  );
  const content = `${words.join(' ')}.`;
  t.equal(
    code(() => auditContent({ content, url: null })),
    'keyword_required',
  );
});

t.test('csi_failed when the keyword names no entity', async (t) => {
  const a = byId('en-howto-descale');
  t.equal(
    code(() => auditContent({ ...inputOf('strong', a), keyword: 'how to' })),
    'csi_failed',
  );
  t.equal(
    code(() => auditContent({ ...inputOf('strong', a), keyword: 'best' })),
    'csi_failed',
  );
});

t.test('content limits', async (t) => {
  t.equal(
    code(() => auditContent({ content: 'word '.repeat(40_001), url: null, keyword: 'word' })),
    'content_too_large',
  );
  t.equal(
    code(() =>
      auditContent({
        content: '<html><body><nav>menu</nav><p>Too short.</p></body></html>',
        url: 'https://x.example/',
        keyword: 'x',
      }),
    ),
    'crawl_failed',
  );
  t.equal(
    code(() => auditContent({ content: 'Too short to audit.', url: null, keyword: 'x' })),
    'invalid_request',
  );
});

t.test('a supplied language wins over detection', async (t) => {
  const a = byId('en-glossary-compound-interest');
  const r = auditContent({ ...inputOf('strong', a), language: 'pl' });
  t.equal(r.input.language, 'pl');
  t.equal(r.dimensions[0]!.name, 'Zgodność z centralną intencją (CSI-A)', 'labels follow the supplied language');
  t.equal(auditContent(inputOf('strong', a)).input.language, 'en');
});

t.test('supplied text without a title takes the keyword as title; a supplied title is used', async (t) => {
  const a = byId('en-news-library');
  const body = read('strong', a).replace(/^# .*\n/, '');
  const r = runAudit({ content: body, url: null, keyword: a.keyword });
  t.equal(r.scored.doc.title, a.keyword);
  const r2 = runAudit({ content: body, url: null, keyword: a.keyword, title: 'Leeds library opens all night' });
  t.equal(r2.scored.doc.title, 'Leeds library opens all night');
});

t.test('HTML pages give more signals than the same text supplied', async (t) => {
  const a = byId('en-listicle-running-shoes');
  const html = auditContent({
    ...inputOf('strong', a),
    url: 'https://runblog.example/best-running-shoes-for-beginners',
  });
  t.ok(html.eeat!.expertise >= 7, 'byline, credentials and Person data count');
  t.ok(html.eeat!.trust >= 7, 'HTTPS, dates, about/contact/privacy links count');
  t.match(html.dimensions.find((d) => d.id === 'cor')!.summary, /retrieval checks/);
});

t.test('the full AuditResultV1 validates once the service adds its fields', async (t) => {
  const r = auditContent(inputOf('strong', byId('pl-news-rowery')));
  const full = {
    id: 'job_1',
    status: 'completed',
    createdAt: '2026-09-01T10:00:00Z',
    completedAt: '2026-09-01T10:03:00Z',
    ...r,
    meta: sampleResultMeta(),
  };
  t.ok(
    Value.Check(AuditResultV1Schema, full),
    [...Value.Errors(AuditResultV1Schema, full)]
      .slice(0, 3)
      .map((e) => `${e.path} ${e.message}`)
      .join('; '),
  );
  t.notOk(Value.Check(AuditResultV1Schema, { ...full, status: 'running' }), 'only completed audits');
  t.notOk(Value.Check(AuditResultV1Schema, { ...full, scores: { cqs: 101, aiCitability: null } }), 'CQS is 0-100');
});
