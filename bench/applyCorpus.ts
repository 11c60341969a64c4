/**
 * The rewrite measured on the project's corpora (issue 13): for each weak article, apply every
 * selectable item and re-score as the measurement does. Prints the table of docs/apply.md.
 * `npx tsx bench/applyCorpus.ts`; test/unit/apply/corpusGain.unit.ts holds the threshold.
 */
import { gainTable, measureGain, weakArticles } from '../test/eval/applyGain.ts';

console.log(gainTable(weakArticles().map(measureGain)));
