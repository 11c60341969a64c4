import { planItems } from '../../services/apply/items.ts';
import { rewrite } from '../../services/apply/rewrite.ts';
import { guardScore, scoreMarkdown } from '../../services/apply/score.ts';
import { toMarkdown } from '../../services/apply/sourceMarkdown.ts';
import { auditContent } from '../../services/engine/audit.ts';
import type { SerpBenchmarkInput } from '../../services/engine/types.ts';
import { articles, read } from '../fixtures/engine/corpus.ts';
import { loadSet, SETS, type Half } from './corpus.ts';

/** One weak article with every selectable item applied (issue 13: the rewrite measured on the corpus). */
export interface GainRow {
  corpus: 'engine' | 'eval-tuning' | 'eval-heldout' | Exclude<Half, 'tuning' | 'heldout'>;
  id: string;
  /** The audit's CQS (on the content as supplied). */
  auditCqs: number;
  /** The original as Markdown, scored as the measurement scores (both sides in the same format). */
  before: number;
  after: number;
  /** The same before rounding (what the guard compares). */
  beforeRaw: number;
  afterRaw: number;
  selectable: number;
  /** Items only the author can do (authorDataOnly): apply cannot write them without the author's facts. */
  authorTasks: number;
  applied: number;
  skipped: number;
}

interface Weak {
  corpus: GainRow['corpus'];
  id: string;
  content: string;
  format: 'html' | 'text';
  keyword: string;
  language: string;
  benchmark: SerpBenchmarkInput | null;
}

/**
 * The weak articles of the corpora: the engine fixtures (audited offline, no benchmark), the
 * evaluation corpus's poor versions (both halves) and corpus-a's and corpus-b's weak ones (with their SERP file as
 * the benchmark, as an audit with a provider has).
 */
export const weakArticles = (): Weak[] => [
  ...articles.map((a): Weak => ({
    corpus: 'engine',
    id: a.id,
    content: read('weak', a),
    format: a.file.endsWith('.html') ? 'html' : 'text',
    keyword: a.keyword,
    language: a.language,
    benchmark: null,
  })),
  ...SETS.flatMap((half) =>
    loadSet(half).map((t): Weak => ({
      corpus: half === 'tuning' || half === 'heldout' ? `eval-${half}` : half,
      id: t.id,
      content: t.poor,
      format: 'text',
      keyword: t.keyword,
      language: t.language,
      benchmark: t.serp,
    })),
  ),
];

/** What a generation and its measurement do, without the service around them: items, rewrite, score. */
export const measureGain = (w: Weak): GainRow => {
  const audit = auditContent({
    content: w.content,
    format: w.format,
    url: null,
    keyword: w.keyword,
    language: w.language,
    benchmark: w.benchmark,
  });
  const markdown = toMarkdown(w.content, w.format);
  const items = planItems({
    markdown,
    language: audit.input.language ?? w.language,
    keyword: audit.input.keyword ?? w.keyword,
    recommendations: audit.recommendations,
    paa: audit.benchmark?.paa ?? [],
    title: /^#\s+(.+)$/m.exec(markdown)?.[1] ?? null,
  });
  const basis = { url: null, keyword: w.keyword, language: w.language, benchmark: w.benchmark };
  const score = scoreMarkdown(basis);
  const raw = guardScore(basis);
  const selectable = items.filter((p) => p.item.selectable).map((p) => p.item.id);
  // As a generation does (engineWork.ts): the guard on the unrounded score, the measurement rounded.
  const r = rewrite(markdown, items, selectable, raw);
  return {
    corpus: w.corpus,
    id: w.id,
    auditCqs: audit.scores.cqs ?? 0,
    before: score(markdown, null) ?? 0,
    after: score(r.markdown, r.title) ?? 0,
    beforeRaw: Math.round((raw(markdown, null) ?? 0) * 100) / 100,
    afterRaw: Math.round((raw(r.markdown, r.title) ?? 0) * 100) / 100,
    selectable: selectable.length,
    authorTasks: items.filter((p) => p.item.authorDataOnly).length,
    applied: r.appliedIds.length,
    skipped: r.skipped.length,
  };
};

const tally = (label: string, rows: readonly GainRow[]): string => {
  const raised = rows.filter((r) => r.after > r.before).length;
  const lowered = rows.filter((r) => r.after < r.before).length;
  return `${label}: raised ${raised}/${rows.length} (${Math.round((raised / rows.length) * 1000) / 10}%), lowered ${lowered}`;
};

export const gainTable = (rows: readonly GainRow[]): string =>
  [
    '| corpus | article | audit CQS | Markdown before | after | unrounded | selectable | author tasks | applied | skipped |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.corpus} | ${r.id} | ${r.auditCqs} | ${r.before} | ${r.after} | ${r.beforeRaw.toFixed(2)} → ${r.afterRaw.toFixed(2)} | ${r.selectable} | ${r.authorTasks} | ${r.applied} | ${r.skipped} |`,
    ),
    '',
    ...[...new Set(rows.map((r) => r.corpus))].map(
      (c) =>
        `- ${tally(
          c,
          rows.filter((r) => r.corpus === c),
        )}`,
    ),
    `- ${tally('all', rows)}`,
  ].join('\n');
