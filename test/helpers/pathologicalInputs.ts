/**
 * Inputs built to find superlinear steps in the engine (issue 22): each is a normal opening (so
 * the audit gets past preparation and runs every dimension) followed by a pathological body of the
 * requested total length. `normalInput` is an ordinary article of the same length, the yardstick.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../infra/local/kafkaJars.ts';
import { auditContent } from '../../services/engine/audit.ts';
import { prepareAudit } from '../../services/engine/prepare.ts';
import type { EngineInput } from '../../services/engine/types.ts';

export interface PathologicalInput {
  kind: string;
  content: string;
  keyword: string;
  format?: 'markdown' | 'html' | 'text';
}

const ARTICLE = 'test/fixtures/engine/strong/en-howto-descale.md';
const KEYWORD = 'descale espresso machine';
const article = () => readFileSync(join(repoRoot, ARTICLE), 'utf8');
const opening = () => article().slice(0, 1500);

const fill = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

export const normalInput = (chars: number): PathologicalInput => ({
  kind: 'normal article',
  content: fill(article() + '\n\n', chars),
  keyword: KEYWORD,
});

/** The same article as an HTML page (paragraphs and headings), the yardstick of the HTML kinds. */
export const normalHtmlInput = (chars: number): PathologicalInput => {
  const blocks = article()
    .split(/\n{2,}/)
    .map((b) => (b.startsWith('#') ? `<h2>${b.replace(/^#+\s*/, '')}</h2>` : `<p>${b}</p>`))
    .join('\n');
  return {
    kind: 'normal html page',
    content: `<html><body><article>${fill(blocks + '\n', chars - 40)}</article></body></html>`,
    keyword: KEYWORD,
    format: 'html',
  };
};

/** Builders of the pathological bodies, by name; each returns exactly `chars` characters of body. */
const BODIES: Record<string, (chars: number) => string> = {
  'one long token': (n) => fill('ż', n),
  'no space, no sentence end': (n) => fill('ab,cd;ef-', n),
  'no sentence end': (n) => fill('word and other words ', n),
  headings: (n) => fill('# h\n', n),
  'list items': (n) => fill('- descale item\n', n),
  'numbers and units': (n) => fill('12 ml 3.5 % 2024 ', n),
  links: (n) => fill('[descale](https://example.com/a) ', n),
  punctuation: (n) => fill('.!?;:', n),
  'deep html nesting': (n) => {
    const depth = Math.floor(n / 19);
    return '<div><b>'.repeat(depth) + 'x' + '</b></div>'.repeat(depth);
  },
  // Chains just under the depth caps, as many as fit: the most work left after the cap.
  'many nested chains': (n) =>
    fill(`${'<div>'.repeat(22)}${'<ul><li>'.repeat(8)}x${'</li></ul>'.repeat(8)}${'</div>'.repeat(22)}`, n),
  // Each of these took seconds to minutes at 50,000 characters before the engine and apply read
  // them in one pass (regular expressions retried from every start of a run; linkedom's lists).
  'open brackets': (n) => fill('[', n),
  'open links': (n) => fill('[a](', n),
  'open tags': (n) => fill('<a ', n),
  'one run of digits': (n) => fill('1234567890', n),
  'unclosed quotation': (n) => `He said „${fill('descale the tank with water ', n - 10)}`,
  'heading of spaces': (n) => `# Descale${' '.repeat(Math.max(0, n - 12))}x`,
  'anchor links without end': (n) => fill('](#', n),
  'fill gaps without end': (n) => fill('<fill ', n),
  'script openings': (n) => fill('<script ', n),
  'blockquote depth': (n) => fill('>', n),
  'list depth on one line': (n) => fill('- ', n),
  'one sentence of commas, quotes and brackets': (n) => fill('"descale" (12), 3.5 water, ', n),
  'according to, według, laut': (n) => fill('According to "Anna Nowak" the tank, według „GUS”, laut „Bosch“ said. ', n),
  diacritics: (n) => fill('zażółć gęślą jaźń Größenübermäßigkeit Straße ', n),
  'table rows': (n) => `| a | b |\n|---|---|\n${fill('| descale | 12 ml |\n', n - 22)}`,
  'html headings': (n) => fill('<h2>descale</h2>', n),
  'html paragraphs': (n) => fill('<p>Descale the tank.</p>', n),
  'html tables': (n) => fill('<table><tr><td>descale</td></tr></table>', n),
  'html table cells': (n) => `<table><tr>${fill('<td>descale 12</td>', n - 30)}</tr></table>`,
  'html comments': (n) => fill('<!-- a --><p>descale water.</p>', n),
  'html links': (n) => fill('<a href="https://example.com/a">descale</a> ', n),
  'html unclosed tags': (n) => fill('<div><p><b><i><span>text ', n),
};
const HTML_KINDS = new Set([
  'deep html nesting',
  'many nested chains',
  'html headings',
  'html paragraphs',
  'html tables',
  'html table cells',
  'html comments',
  'html links',
  'html unclosed tags',
]);

export const PATHOLOGICAL_KINDS = Object.keys(BODIES);

export const pathologicalInput = (kind: string, chars: number): PathologicalInput => {
  const head = opening();
  const body = BODIES[kind]!(Math.max(0, chars - head.length - 2));
  const html = HTML_KINDS.has(kind);
  return {
    kind,
    content: html ? `<html><body><article><p>${head}</p>${body}</article></body></html>` : `${head}\n\n${body}`,
    keyword: KEYWORD,
    ...(html ? { format: 'html' as const } : {}),
  };
};

/**
 * The engine's CPU time on one input, as the service runs it (prepare, then audit with what it
 * resolved), and how it ended. CPU time, not wall time, so another process on the machine does not
 * decide the outcome.
 */
export const engineCpuMs = (input: Omit<EngineInput, 'url'>): { ms: number; outcome: string } => {
  const start = process.cpuUsage();
  let outcome: string;
  try {
    const engineInput = { ...input, url: null };
    const p = prepareAudit(engineInput);
    outcome = `cqs ${auditContent({ ...engineInput, keyword: p.keyword, language: p.language }).scores.cqs}`;
  } catch (e) {
    outcome = `refused: ${(e as Error).message}`;
  }
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, outcome };
};
