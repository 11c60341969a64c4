import type { Finding, ScoringContext } from '../context.ts';
import { percent, t } from '../labels.ts';
import type { Doc } from '../types.ts';
import { finding, sectionName, unique } from './helpers.ts';
import { withoutKeyphrase } from '../keyphraseCut.ts';

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

const MAX_SHARE = 0.75;

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
    const after = withoutKeyphrase(before, ctx);
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
