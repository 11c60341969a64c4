import type { ScoringContext } from './context.ts';
import type { Lexicon } from './text/lexicon.ts';
import { tokenize } from './text/segment.ts';
import type { Doc, Sentence } from './types.ts';

/** Opens on a conclusion word ("Mein Fazit: …", "Podsumowując, …", "In summary, …"). */
export const opensAsConclusion = (text: string, ctx: Pick<ScoringContext, 'lex'>): boolean => {
  const head = tokenize(text).slice(0, 4);
  return ctx.lex.conclusionHeadings.some((c) => {
    const cw = tokenize(c);
    if (cw.length > 1) return head.join(' ').includes(cw.join(' '));
    return head.some((w) => w.startsWith(cw[0]!.slice(0, 6)));
  });
};

/** A heading that reads as the conclusion ("Fazit", "Podsumowanie", "Final thoughts"). One owner for the rule. */
export const isConclusionHeading = (text: string, lex: Pick<Lexicon, 'conclusionHeadings'>): boolean => {
  const h = text.toLowerCase();
  return lex.conclusionHeadings.some((c) => h.includes(c));
};

/**
 * A sentence that sums up: it opens on a conclusion word, or stands in a section headed as the
 * conclusion ("Fazit", "Podsumowanie", "Conclusion"). What it touches is treated elsewhere.
 */
export const sumsUp = (doc: Doc, s: Sentence, ctx: Pick<ScoringContext, 'lex'>): boolean => {
  const heading = doc.sections[s.section]?.heading?.text ?? '';
  return opensAsConclusion(s.text, ctx) || (heading !== '' && isConclusionHeading(heading, ctx.lex));
};
