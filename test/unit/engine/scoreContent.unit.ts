/**
 * scoreContent (the scores alone, which apply's guard and measurement use) must give exactly the
 * scores runAudit gives on the same input: the same document, the same benchmark, the same CQS
 * before and after rounding. Checked on the corpus's articles as Markdown (apply's format), with
 * and without a SERP benchmark, and on the benchmark's 2,000-word page.
 */
import t from 'tap';
import { syntheticPage } from '../../../bench/engine.ts';
import { runAudit, scoreContent } from '../../../services/engine/audit.ts';
import type { EngineInput } from '../../../services/engine/types.ts';
import { loadHalf } from '../../eval/corpus.ts';
import { articles, read } from '../../fixtures/engine/corpus.ts';

const view = (s: ReturnType<typeof scoreContent>) => ({
  cqs: s.cqs,
  cqsRaw: s.cqsRaw,
  eeat: s.eeat,
  profile: s.profile,
  keywordDensity: s.keywordDensity,
  outcomes: s.outcomes.map((o) => [o.id, o.score, o.cap, o.findings.length]),
});

const inputs: { name: string; input: EngineInput }[] = [
  {
    name: 'bench page',
    input: { content: syntheticPage(2000), format: 'html', url: null, keyword: 'descale espresso machine' },
  },
];
for (const a of articles)
  for (const v of ['strong', 'weak'] as const)
    inputs.push({
      name: `${v}/${a.file}`,
      input: { content: read(v, a), format: 'markdown', title: null, url: null, keyword: a.keyword },
    });
for (const topic of loadHalf('tuning').slice(0, 4))
  inputs.push({
    name: `with a benchmark: ${topic.keyword}`,
    input: { content: topic.strong, format: 'markdown', url: null, keyword: topic.keyword, benchmark: topic.serp },
  });

t.test('scoreContent gives the scores runAudit gives', async (t) => {
  for (const { name, input } of inputs) t.same(view(scoreContent(input)), view(runAudit(input).scored), name);
});
