/**
 * The rewrite measured on the project's corpora (issue 13): for each weak article, apply every
 * selectable item and re-score as the measurement does. Prints the table of docs/apply.md.
 * `npx tsx bench/applyCorpus.ts [corpus …]`; test/unit/apply/corpusGain.unit.ts holds the threshold.
 */
import { gainTable, measureGain, weakArticles } from '../test/eval/applyGain.ts';

// Optional corpus names (engine, eval-tuning, eval-heldout, corpus-a): tune without the held-out half.
const only = process.argv.slice(2);
console.log(
  gainTable(
    weakArticles()
      .filter((w) => only.length === 0 || only.includes(w.corpus))
      .map(measureGain),
  ),
);
