import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVAL_DIR, HALVES, loadHalf } from '../../eval/corpus.ts';
import { evaluateTopic, summarise, type TopicEval } from '../../eval/evaluate.ts';
import { currentSection, heldoutSection } from '../../eval/report.ts';
import { isKeywordAppend, RULES } from '../../eval/rules.ts';

/**
 * The evaluation corpus (issue 12): the recommendation rules hold on every topic of both halves
 * (they are invariants, not tuning), and docs/scoring.md carries the current held-out table.
 */

const evals = new Map<string, TopicEval[]>();
for (const half of HALVES) evals.set(half, loadHalf(half).map(evaluateTopic));

t.test('the rule checks can fail', async (t) => {
  t.ok(isKeywordAppend('## What you need', '## What you need: bleed a radiator', 'bleed a radiator'));
  t.notOk(isKeywordAppend('## What you need', '## Tools you need to bleed a radiator', 'bleed a radiator'));
});

for (const rule of RULES) {
  t.test(`recommendation rule ${rule}: no violation on the whole corpus`, async (t) => {
    for (const half of HALVES) {
      for (const e of evals.get(half) ?? []) {
        const v = e.violations.filter((x) => x.rule === rule);
        t.same(
          v.map((x) => `${x.article} ${x.rec}: ${x.detail}`),
          [],
          `${half}/${e.id}`,
        );
      }
    }
  });
}

t.test('docs/scoring.md carries the current held-out table (npm run eval rewrites it)', async (t) => {
  const held = evals.get('heldout') ?? [];
  t.ok(held.length > 0, 'the held-out half has topics');
  const doc = readFileSync(join(EVAL_DIR, '..', '..', '..', 'docs', 'scoring.md'), 'utf8');
  t.equal(currentSection(doc), heldoutSection(summarise('heldout', held), held));
});
