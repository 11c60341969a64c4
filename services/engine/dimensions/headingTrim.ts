import type { Finding, ScoringContext } from '../context.ts';
import { percent, t } from '../labels.ts';
import { tokenize, wordSpans } from '../text/segment.ts';
import type { Doc } from '../types.ts';
import { finding, sectionName, unique } from './helpers.ts';
import { usesIn } from './stuffingTrim.ts';

/**
 * A subheading that names the keyphrase past the natural share (over 75 % of them), trimmed where
 * the cut is safe by construction, so the AFTER is the heading with words removed, never added:
 * - the keyphrase at the end, attached by a preposition ("Fazit zum Hochwasser Regen" → "Fazit",
 *   "Tips for cleaning a grill" → "Tips"): what is left is the heading's own words;
 * - the keyphrase at the start before a colon or a dash ("Roof repair Leeds: our prices" → "Our
 *   prices").
 * Offered only where one heading less brings the share into range (a single change has to be
 * worth its measured point), on the last heading that allows it: the first ones keep naming the
 * subject. Elsewhere the "vary some subheadings" task stays.
 */

/** A preposition (with an optional article or possessive) that attaches the keyphrase to the heading's words. */
const ATTACH: Record<string, RegExp> = {
  en: /\s+(?:for|of|about|on|in|with|to|from|at)(?:\s+(?:the|a|an|your|my))?\s*$/iu,
  de: /\s+(?:zum|zur|beim|bei|im|in|für|über|von|vom|mit|am|an|zu)(?:\s+(?:der|die|das|den|dem|des|ein|eine|einem|einer|eines|ihre[mnrs]?|ihr))?\s*$/iu,
  pl: /\s+(?:dla|o|w|we|na|przy|do|z|ze|po|od)\s*$/iu,
};
const LEAD_JOINT = /^\s*(?::|[–—-])\s+(?=\p{L})/u;
const MAX_SHARE = 0.75;

/** The heading without the keyphrase, or null where no cut is safe. */
const trimmed = (text: string, ctx: ScoringContext): string | null => {
  const spans = wordSpans(text);
  const kwSeq = tokenize(ctx.kw.text).map((w) => ctx.an.stem(w));
  const uses = usesIn(spans, kwSeq, ctx.an.stem);
  if (uses.length !== 1 || !kwSeq.length) return null;
  const [from, to] = uses[0]!;
  const tail = text.slice(spans[to - 1]!.end);
  if (to === spans.length && /^[\s?.!]*$/u.test(tail)) {
    const head = text.slice(0, spans[from]!.start);
    const attach = (ATTACH[ctx.lang] ?? ATTACH.en!).exec(head);
    return attach ? `${head.slice(0, attach.index).trimEnd()}${tail.trim()}` : null;
  }
  const joint = from === 0 ? LEAD_JOINT.exec(tail) : null;
  if (!joint) return null;
  const rest = tail.slice(joint[0].length);
  return rest.charAt(0).toLocaleUpperCase(ctx.lang) + rest.slice(1);
};

export const headingTrimFinding = (
  doc: Doc,
  ctx: ScoringContext,
  namesKeyphrase: (heading: string) => boolean,
): Finding | null => {
  const { lang, kw, an } = ctx;
  const heads = doc.sections.flatMap((s) => (s.heading && s.heading.level >= 2 ? [s.heading.text] : []));
  const named = heads.filter(namesKeyphrase);
  if (heads.length < 2 || named.length / heads.length <= MAX_SHARE) return null;
  if ((named.length - 1) / heads.length > MAX_SHARE) return null;
  const own = new Set(kw.stems);
  const taken = new Set(heads.map((h) => h.trim().toLowerCase()));
  for (const before of [...named].reverse()) {
    const after = trimmed(before, ctx);
    if (!after || namesKeyphrase(after) || taken.has(after.trim().toLowerCase())) continue;
    if (!an.contentStems(after).some((s) => !own.has(s)) || !unique(doc.content, before)) continue;
    const section = doc.sections.findIndex((s) => s.heading?.text === before);
    const share = Math.round((named.length / heads.length) * 100);
    return finding({
      kind: 'stuffedHeading',
      subject: kw.text,
      title: t(
        lang,
        'Drop the keyphrase from this subheading',
        'Usuń frazę z tego śródtytułu',
        'Das Keyword aus dieser Zwischenüberschrift streichen',
      ),
      problem: t(
        lang,
        `"${kw.text}" is in ${share}% of the subheadings (natural: up to 75%).`,
        `„${kw.text}” jest w ${share}% śródtytułów (naturalnie do 75%).`,
        `„${kw.text}“ steht in ${share} % der Zwischenüberschriften (natürlich: bis 75 %).`,
      ),
      suggestion: t(
        lang,
        "Keep the subheading's own words, as shown; the sections before it still name the subject.",
        'Zostaw własne słowa śródtytułu, jak w propozycji; wcześniejsze sekcje nadal nazywają temat.',
        'Die eigenen Wörter der Zwischenüberschrift behalten, wie gezeigt; die Abschnitte davor nennen das Thema weiter.',
      ),
      section: sectionName(doc, section),
      sectionIndex: Math.max(0, section),
      actionType: 'replace',
      severity: 0.1,
      change: { kind: 'replace', before, after },
      figure: percent(lang, share),
    });
  }
  return null;
};
