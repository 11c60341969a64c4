import { applyChange } from '../../services/engine/apply.ts';
import type { AuditRun } from '../../services/engine/audit.ts';
import { round1 } from '../../services/engine/dimensions/helpers.ts';
import { passageLinks, type PassageLink } from '../../services/engine/text/links.ts';
import { tokenize } from '../../services/engine/text/segment.ts';
import type { Block, Change, Recommendation } from '../../services/engine/types.ts';

/**
 * The rules a writer's acceptance puts on recommendations (issue 12), checked on one audit:
 * - keywordAppend: no AFTER merely appends the keyword to a heading or a sentence;
 * - brokenLink: no change separates a sentence from what it announces or refers back to (a colon
 *   before a list, "these …", "below");
 * - placeholderPasteable: an AFTER with an author-data slot ("[fill in: …]") is marked authorDataOnly;
 * - beforeVerbatim: every BEFORE (and insert anchor) stands verbatim in the content;
 * - deltaMismatch: estimatedCqsDelta equals the re-measured gain of the applied change.
 */

export const RULES = [
  'keywordAppend',
  'brokenLink',
  'placeholderPasteable',
  'beforeVerbatim',
  'deltaMismatch',
] as const;
export type Rule = (typeof RULES)[number];
export interface Violation {
  rule: Rule;
  rec: string;
  detail: string;
}

export const changeOf = (r: Recommendation): Change =>
  r.insertAt
    ? { kind: 'insert', placement: r.insertAt.placement, anchor: r.insertAt.anchor, after: r.after }
    : { kind: 'replace', before: r.before, after: r.after };

const SLOT = /\[(?:fill in|uzupełnij|ergänzen|ausfüllen)\s*:/iu;

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Texts of the blocks in order (lists and tables as their items). */
const blockTexts = (blocks: Block[]): string[] =>
  blocks.map((b) => norm(b.kind === 'list' || b.kind === 'table' ? b.items.join(' ') : b.text)).filter(Boolean);

/** A link holds when, wherever both sentences still stand, the second directly follows the first. */
const linkHolds = (plain: string, l: PassageLink): boolean => {
  const a = plain.indexOf(l.first);
  const b = plain.indexOf(l.second);
  if (a < 0 || b < 0) return true; // one of them was rewritten by the change itself: judged by the other rules
  return norm(plain.slice(a + l.first.length, b)) === '';
};

const keywordWords = (kw: string) => new Set(tokenize(kw));

/** The AFTER only adds keyword words (and joining punctuation or function words) to the BEFORE. */
export const isKeywordAppend = (before: string, after: string, keyword: string): boolean => {
  if (!before.trim()) return false;
  const bw = tokenize(before);
  const aw = tokenize(after);
  const left = new Map<string, number>();
  for (const w of bw) left.set(w, (left.get(w) ?? 0) + 1);
  const added: string[] = [];
  for (const w of aw) {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    else added.push(w);
  }
  if (!added.length || [...left.values()].some((n) => n > 0)) return false;
  const kws = keywordWords(keyword);
  const glue = new Set([
    'and',
    'for',
    'of',
    'the',
    'a',
    'in',
    'on',
    'to',
    'with',
    'i',
    'w',
    'na',
    'do',
    'z',
    'dla',
    'und',
    'für',
    'mit',
    'der',
    'die',
    'das',
    'im',
    'zu',
  ]);
  return added.some((w) => kws.has(w)) && added.every((w) => kws.has(w) || glue.has(w));
};

export const checkRules = (
  run: AuditRun,
  content: string,
  keyword: string,
  plainOf: (content: string) => { blocks: Block[] },
): Violation[] => {
  const out: Violation[] = [];
  const doc = run.scored.doc;
  const links = passageLinks(doc.blocks);
  for (const r of run.result.recommendations) {
    const change = changeOf(r);
    if (r.before && !content.includes(r.before))
      out.push({ rule: 'beforeVerbatim', rec: r.id, detail: `BEFORE not in the content: ${r.before.slice(0, 80)}` });
    if (r.insertAt && r.insertAt.placement !== 'end' && !content.includes(r.insertAt.anchor))
      out.push({
        rule: 'beforeVerbatim',
        rec: r.id,
        detail: `anchor not in the content: ${r.insertAt.anchor.slice(0, 80)}`,
      });
    if (SLOT.test(r.after) && (r as Recommendation & { authorDataOnly?: boolean }).authorDataOnly !== true)
      out.push({ rule: 'placeholderPasteable', rec: r.id, detail: r.after.slice(0, 100) });
    if (r.before && isKeywordAppend(r.before, r.after, keyword))
      out.push({ rule: 'keywordAppend', rec: r.id, detail: `${r.before.slice(0, 60)} → ${r.after.slice(0, 80)}` });
    let changed: string;
    try {
      changed = applyChange(content, doc.format, change);
    } catch (e) {
      out.push({ rule: 'beforeVerbatim', rec: r.id, detail: (e as Error).message });
      continue;
    }
    const plain = blockTexts(plainOf(changed).blocks).join(' ');
    // An in-place author task leaves the content as it is: it separates nothing (a question title
    // and its answer read as apart even in the unchanged page's plain blocks).
    for (const l of changed === content ? [] : links)
      if (!linkHolds(plain, l))
        out.push({
          rule: 'brokenLink',
          rec: r.id,
          detail: `${l.why}: "${l.first.slice(-60)}" no longer followed by "${l.second.slice(0, 50)}"`,
        });
    const gain = round1(run.rescore(changed).cqsRaw - run.scored.cqsRaw);
    if (Math.abs(gain - r.estimatedCqsDelta) > 0.05)
      out.push({ rule: 'deltaMismatch', rec: r.id, detail: `estimated ${r.estimatedCqsDelta}, re-measured ${gain}` });
  }
  return out;
};
