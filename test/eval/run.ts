import { join } from 'node:path';
import { EVAL_DIR, loadSet, SETS, TUNING_SETS, type Half } from './corpus.ts';
import { evaluateTopic, summarise } from './evaluate.ts';
import { GAMING, geoRows, VARIANTS } from './geo.ts';
import { HAND_HALVES, HAND_SETS, HAND_VARIANTS, type HandSet, type HandVariant, handRows } from './geoHand.ts';
import { heldoutSection, summaryTable, topicTable, writeSection } from './report.ts';

/**
 * `npm run eval [-- --half tuning|heldout|corpus-a|corpus-b|corpus-c|corpus-d|corpus-e|corpus-f|corpus-g|corpus-h|corpus-i|corpus-j] [--verbose] [--no-write]`: the engine measured on the
 * evaluation corpus, per half; writes the held-out table into docs/scoring.md (and docs/engine.md).
 */
const args = process.argv.slice(2);
const only = args.includes('--half') ? (args[args.indexOf('--half') + 1] as Half) : null;
const verbose = args.includes('--verbose');
const write = !args.includes('--no-write');
const root = join(EVAL_DIR, '..', '..', '..');

for (const half of SETS.filter((h) => !only || h === only)) {
  const started = Date.now();
  const evals = loadSet(half).map(evaluateTopic);
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
    for (const f of ['docs/scoring.md', 'docs/engine.md']) {
      try {
        if (writeSection(join(root, f), section)) console.log(`\n${f}: held-out table updated`);
      } catch (e) {
        console.log(`\n${f}: ${(e as Error).message}`);
      }
    }
  }
}

// GEO table (issue 24): each one-change variant of every strong article (tuning, engine fixtures,
// corpus-a), the direction of its CQS change; not on a run of a measured-only set.
if (!args.includes('--no-geo') && (!only || (TUNING_SETS as readonly Half[]).includes(only))) {
  const rows = geoRows();
  console.log(`\n## GEO variants (${rows.length} strong articles)\n`);
  console.log('| Variant | Raised | Unchanged | Lowered | Mean ΔCQS | Expected |');
  console.log('|---|---|---|---|---|---|');
  for (const v of VARIANTS) {
    const d = rows.map((r) => r.deltas[v]);
    const mean = Math.round((d.reduce((a, b) => a + b, 0) / d.length) * 100) / 100;
    const expect = (GAMING as readonly string[]).includes(v) ? 'never raised' : 'raised on ≥ 90%';
    console.log(
      `| ${v} | ${d.filter((x) => x > 0).length} | ${d.filter((x) => x === 0).length} | ${d.filter((x) => x < 0).length} | ${mean} | ${expect} |`,
    );
  }
}

// Hand-written GEO variants (issue 24, item 6), by half: tuning and corpus-a steer the engine, the
// held-out half is measured only.
if (!args.includes('--no-geo')) {
  for (const half of HAND_HALVES.filter((h) => !only || h === only))
    for (const set of HAND_SETS) printHandRows(half, set);
}

function printHandRows(half: Half, set: HandSet): void {
  const rows = handRows(half, set);
  if (!rows.length) return;
  console.log(`\n## GEO variants written by hand: ${half}${set} (${rows.length} strong articles)\n`);
  console.log('| Article | ' + HAND_VARIANTS.join(' | ') + ' |');
  console.log('|---|' + HAND_VARIANTS.map(() => '---|').join(''));
  for (const r of rows) console.log(`| ${r.id} | ${HAND_VARIANTS.map((v) => r.deltas[v] ?? '–').join(' | ')} |`);
  const raised = (v: HandVariant) => rows.filter((r) => (r.deltas[v] ?? 0) > 0).length;
  console.log(`| raised | ${HAND_VARIANTS.map((v) => `${raised(v)}/${rows.length}`).join(' | ')} |`);
  if (verbose) for (const r of rows) for (const v of HAND_VARIANTS) console.log(`  ${r.id} ${v}: ${r.moved[v] ?? ''}`);
}
