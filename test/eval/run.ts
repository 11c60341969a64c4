import { join } from 'node:path';
import { EVAL_DIR, HALVES, loadHalf, type Half } from './corpus.ts';
import { evaluateTopic, summarise } from './evaluate.ts';
import { heldoutSection, summaryTable, topicTable, writeSection } from './report.ts';

/**
 * `npm run eval [-- --half tuning|heldout] [--verbose] [--no-write]`: the engine measured on the
 * evaluation corpus, per half; writes the held-out table into docs/scoring.md (and the README).
 */
const args = process.argv.slice(2);
const only = args.includes('--half') ? (args[args.indexOf('--half') + 1] as Half) : null;
const verbose = args.includes('--verbose');
const write = !args.includes('--no-write');
const root = join(EVAL_DIR, '..', '..', '..');

for (const half of HALVES.filter((h) => !only || h === only)) {
  const started = Date.now();
  const evals = loadHalf(half).map(evaluateTopic);
  const s = summarise(half, evals);
  console.log(`\n## ${half} (${evals.length} topics, ${Date.now() - started} ms)\n`);
  console.log(summaryTable(s));
  console.log('');
  console.log(topicTable(evals));
  if (verbose)
    for (const e of evals)
      for (const v of e.violations) console.log(`  ${e.id} ${v.article} ${v.rec} ${v.rule}: ${v.detail}`);
  if (half === 'heldout' && write && evals.length) {
    const section = heldoutSection(s, evals);
    for (const f of ['docs/scoring.md', 'README.md']) {
      try {
        if (writeSection(join(root, f), section)) console.log(`\n${f}: held-out table updated`);
      } catch (e) {
        console.log(`\n${f}: ${(e as Error).message}`);
      }
    }
  }
}
