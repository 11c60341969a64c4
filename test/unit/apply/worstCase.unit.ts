import t, { type Test } from 'tap';
import { planItems } from '../../../services/apply/items.ts';
import { renderPreview } from '../../../services/apply/preview.ts';
import { rewrite } from '../../../services/apply/rewrite.ts';
import { toMarkdown } from '../../../services/apply/sourceMarkdown.ts';
import { auditContent } from '../../../services/engine/audit.ts';
import {
  normalHtmlInput,
  normalInput,
  pathologicalInput,
  PATHOLOGICAL_KINDS,
  type PathologicalInput,
} from '../../helpers/pathologicalInputs.ts';

/**
 * Apply on the worst valid article costs a bounded multiple of an ordinary one: the items planned
 * from the audit, the rewrite of 300 selected ids (the spec's most: every item, the rest unknown)
 * and the preview, for each hostile input at 200,000 characters, against an ordinary article of
 * the same length in the same run (a 2,000-word one costs some 20 ms, mostly fixed costs, too
 * little to measure against). Before the fixes, `](#`, `<fill ` and `<script ` floods took 13 s,
 * 33 s and 18 s (45 to 115 times the yardstick), and 200,000 `>` overflowed marked's stack. The
 * guard's engine runs are the engine's own (test/unit/engine/worstCase.unit.ts), so the rewrite
 * here runs without it.
 */
const CHARS = 200_000;
/** A kind may cost more a character than prose (12,500 headings are 12,500 blocks with anchors). */
const MAX_RATIO = 20;
const SLACK_MS = 250;
const SELECTED = 300;

/** CPU time of apply's work on one article (its audit not counted). */
const applyCpuMs = (input: PathologicalInput): number => {
  const format = input.format === 'html' ? 'html' : 'text';
  const audit = auditContent({ content: input.content, format, url: null, keyword: input.keyword, language: 'en' });
  const start = process.cpuUsage();
  const markdown = toMarkdown(input.content, format);
  const items = planItems({
    markdown,
    language: 'en',
    keyword: input.keyword,
    recommendations: audit.recommendations,
    paa: ['How often should you descale an espresso machine?', 'Can you descale with vinegar?'],
    title: null,
  });
  const unknown = Array.from({ length: SELECTED }, (_, i) => `rec:${i + 1}`);
  const ids = [...items.map((p) => p.item.id), ...unknown].slice(0, SELECTED);
  const r = rewrite(markdown, items, ids);
  renderPreview(markdown, r, 'en');
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const within = (t: Test, label: string, ms: number, yardstick: number) =>
  t.ok(ms <= MAX_RATIO * yardstick + SLACK_MS, `${label}: ${Math.round(ms)} ms against ${Math.round(yardstick)} ms`);

t.test('apply on hostile articles costs a bounded multiple of an ordinary one', async (t) => {
  applyCpuMs(normalInput(20_000)); // warm the JIT, marked and the word lists
  applyCpuMs(normalHtmlInput(20_000)); // and Readability, turndown
  const text = applyCpuMs(normalInput(CHARS));
  // A page goes through Readability and turndown first: its yardstick is a page.
  const html = applyCpuMs(normalHtmlInput(CHARS));
  for (const kind of PATHOLOGICAL_KINDS) {
    const input = pathologicalInput(kind, CHARS);
    within(t, kind, applyCpuMs(input), input.format === 'html' ? html : text);
  }
});
