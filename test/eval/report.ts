import { readFileSync, writeFileSync } from 'node:fs';
import type { HalfSummary, TopicEval } from './evaluate.ts';
import { RULES } from './rules.ts';

/** Tables of `npm run eval`, and the held-out table kept in docs/scoring.md between markers. */

export const START = '<!-- eval:heldout:start -->';
export const END = '<!-- eval:heldout:end -->';

const pct = (n: number, d: number) => (d ? `${Math.round((n / d) * 100)}%` : '–');
const mark = (ok: boolean) => (ok ? 'yes' : '**no**');

export const summaryTable = (s: HalfSummary): string => {
  const v = RULES.reduce((a, r) => a + s.violations[r], 0);
  const rows: [string, string, string][] = [
    ['strong > poor on CQS', `${s.strongBeatsPoor}/${s.topics} (${pct(s.strongBeatsPoor, s.topics)})`, '100%'],
    [
      'weakened dimensions with strong ≥ poor',
      `${s.dimsHeld}/${s.dimsTotal} (${pct(s.dimsHeld, s.dimsTotal)})`,
      '≥ 90%',
    ],
    [
      'other-referent article capped (CQS ≤ 40)',
      `${s.otherCapped}/${s.topics} (${pct(s.otherCapped, s.topics)})`,
      '≥ 90%',
    ],
    [
      'other-referent competitor left out of top10AvgCqs',
      `${s.otherCompExcluded}/${s.topics} (${pct(s.otherCompExcluded, s.topics)})`,
      '≥ 90%',
    ],
    ['intended-referent competitors wrongly left out', `${s.wronglyExcluded}`, '0'],
    ['intended-referent articles judged another referent (strong, poor)', `${s.wronglyOther}`, '0'],
    [
      'language detected right (strong, poor, other)',
      `${s.languageRight}/${s.topics} (${pct(s.languageRight, s.topics)})`,
      '100%',
    ],
    [
      'keyword auto-detection keeps the head noun (strong, poor)',
      `${s.headNounKept}/${s.topics} (${pct(s.headNounKept, s.topics)})`,
      '–',
    ],
    ...RULES.map((r) => [`rule ${r}: violations`, `${s.violations[r]}`, '0'] as [string, string, string]),
  ];
  void v;
  return ['| Measure | Result | Target |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
};

export const topicTable = (evals: TopicEval[]): string => {
  const rows = evals.map((e) => {
    const weak = e.dims.map((d) => `${d.id} ${d.strong}${d.strong >= d.poor ? '≥' : '<'}${d.poor}`).join(', ');
    return `| ${e.id} | ${e.strongCqs} | ${e.poorCqs} ${mark(e.strongCqs > e.poorCqs)} | ${e.otherCqs} ${mark(e.otherCapped)}${e.wronglyOther.length ? ` (${e.wronglyOther.join(', ')} judged other **no**)` : ''} | ${e.top10AvgCqs ?? '–'} ${mark(e.otherCompExcluded)} | ${e.languageRight ? 'yes' : `**${e.languages.join('/')}**`} | ${e.detectedKeywords.join(' / ')}${e.headNounKept ? '' : ' **no**'} | ${weak} | ${e.violations.length} |`;
  });
  return [
    '| Topic | Strong | Poor (strong > poor) | Other (capped) | top10Avg (other left out) | Language | Auto keyword (strong / poor) | Weakened dims strong vs poor | Rule violations |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
};

export const heldoutSection = (s: HalfSummary, evals: TopicEval[]): string =>
  `${START}\n${summaryTable(s)}\n\n${topicTable(evals)}\n${END}`;

export const replaceSection = (doc: string, section: string): string => {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/scoring.md has no ${START} … ${END} markers`);
  return doc.slice(0, a) + section + doc.slice(b + END.length);
};

export const currentSection = (doc: string): string | null => {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  return a < 0 || b < a ? null : doc.slice(a, b + END.length);
};

export const writeSection = (file: string, section: string): boolean => {
  const doc = readFileSync(file, 'utf8');
  const next = replaceSection(doc, section);
  if (next === doc) return false;
  writeFileSync(file, next);
  return true;
};
