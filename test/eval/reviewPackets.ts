import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditContent } from '../../services/engine/audit.ts';
import { anchorText } from '../../services/reports/reportPage.ts';
import type { Recommendation } from '../../services/engine/types.ts';
import { loadSet, topicInput, type Half, type Topic } from './corpus.ts';

/**
 * `npx tsx test/eval/reviewPackets.ts <dir> [half …]`: the packets of a blind editor review
 * (shared/EDITOR_REVIEW.md, issue 23 item 7). One Markdown file per audit with what a reviewer may
 * see: the keyword, the SERP's People Also Ask questions, the article and its recommendations;
 * never the scores or the engine. The strong and the poor article of each topic of the named sets
 * (default: the sets not used for tuning), with their SERP file, and every second topic's poor
 * article again without one. `index.json` maps packet names to their set and quality for the tally.
 */
const [dir = '/tmp/review', ...rest] = process.argv.slice(2);
const halves = (rest.length ? rest : ['heldout', 'corpus-a', 'corpus-b']) as Half[];

interface Packet {
  name: string;
  half: Half;
  quality: 'strong' | 'poor';
  language: string;
  serp: boolean;
  recommendations: number;
}

const recText = (r: Recommendation, n: number): string =>
  [
    `### ${n}. ${r.title}`,
    `- priority: ${r.priority}; section: ${r.section || '–'}; ${r.authorDataOnly ? 'an author task (the author supplies the facts)' : 'a change to paste'}`,
    r.task ? `- task: ${r.task}` : null,
    // An author task shows its place and what to write, never a BEFORE and an equal AFTER (as the report).
    r.authorDataOnly && r.before
      ? `- where: in this sentence:\n\n> ${r.before.replace(/\n/g, '\n> ')}\n`
      : r.before
        ? `- BEFORE:\n\n> ${r.before.replace(/\n/g, '\n> ')}\n`
        : '- BEFORE: (nothing: an addition)',
    r.authorDataOnly && r.before
      ? null
      : r.after
        ? `- ${r.authorDataOnly ? 'heading to add' : 'AFTER'}:\n\n> ${r.after.replace(/\n/g, '\n> ')}\n`
        : '- AFTER: (removed)',
    // As the report page shows it: an anchor over a few lines by the end that touches the insertion.
    r.insertAt ? `- where: ${r.insertAt.placement} “${anchorText(r.insertAt.anchor, r.insertAt.placement)}”` : null,
    r.evidence
      ? `- why: ${r.evidence.rule}${r.evidence.figure ? ` (${r.evidence.figure})` : ''}${r.evidence.questions.length ? `; questions: ${r.evidence.questions.join(' | ')}` : ''}${r.evidence.competitors.length ? `; competitors: ${r.evidence.competitors.map((c) => c.url).join(', ')}` : ''}`
      : null,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');

const packet = (t: Topic, quality: 'strong' | 'poor', serp: boolean): { text: string; meta: Packet } => {
  const content = quality === 'strong' ? t.strong : t.poor;
  const r = auditContent(topicInput(t, content, serp));
  const name = `${t.half}-${t.id}-${quality}${serp ? '' : '-noserp'}`;
  const recs = r.recommendations;
  const text = [
    `# Review packet ${name}`,
    `Keyword: **${t.keyword}** · language: ${t.language}`,
    serp ? `People Also Ask: ${t.serp.paa.join(' | ') || '–'}` : 'No SERP data for this audit.',
    `## Recommendations (${recs.length})`,
    recs.length ? recs.map((rec, i) => recText(rec, i + 1)).join('\n\n') : '(none)',
    `## The article`,
    content,
  ].join('\n\n');
  return { text, meta: { name, half: t.half, quality, language: t.language, serp, recommendations: recs.length } };
};

mkdirSync(dir, { recursive: true });
const index: Packet[] = [];
for (const half of halves)
  loadSet(half).forEach((t, i) => {
    const made = [packet(t, 'strong', true), packet(t, 'poor', true), ...(i % 2 ? [] : [packet(t, 'poor', false)])];
    for (const p of made) {
      writeFileSync(join(dir, `${p.meta.name}.md`), p.text);
      index.push(p.meta);
    }
  });
writeFileSync(join(dir, 'index.json'), JSON.stringify(index, null, 2));
const shown = index.reduce((s, p) => s + p.recommendations, 0);
console.log(`${index.length} packets, ${shown} recommendations in ${dir}`);
