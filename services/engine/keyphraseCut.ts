import type { ScoringContext } from './context.ts';
import { tokenize, wordSpans } from './text/segment.ts';

/**
 * The keyphrase found and cut in a short text: its uses by stem, and a heading without it where the
 * cut is safe by construction (stuffingTrim.ts, headingTrim.ts, and a SERP heading proposed for the
 * article in grounding.ts).
 */

type Span = { word: string; start: number; end: number };

/** Uses of the keyphrase as typed (every word, by stem, in order): word index ranges [from, to). */
export const usesIn = (spans: Span[], kwSeq: string[], stem: (w: string) => string): [number, number][] => {
  const stems = spans.map((s) => stem(s.word.toLowerCase()));
  const out: [number, number][] = [];
  for (let i = 0; i + kwSeq.length <= stems.length; i++)
    if (kwSeq.every((k, j) => stems[i + j] === k)) {
      out.push([i, i + kwSeq.length]);
      i += kwSeq.length - 1;
    }
  return out;
};

/** A preposition (with an optional article or possessive) that attaches the keyphrase to the heading's words. */
const ATTACH: Record<string, RegExp> = {
  en: /\s+(?:for|of|about|on|in|with|to|from|at)(?:\s+(?:the|a|an|your|my))?\s*$/iu,
  de: /\s+(?:zum|zur|beim|bei|im|in|für|über|von|vom|mit|am|an|zu)(?:\s+(?:der|die|das|den|dem|des|ein|eine|einem|einer|eines|ihre[mnrs]?|ihr))?\s*$/iu,
  pl: /\s+(?:dla|o|w|we|na|przy|do|z|ze|po|od)\s*$/iu,
};
const LEAD_JOINT = /^\s*(?::|[–—-])\s+(?=\p{L})/u;

/** The heading without the keyphrase, or null where no cut is safe. */
export const withoutKeyphrase = (text: string, ctx: Pick<ScoringContext, 'kw' | 'an' | 'lang'>): string | null => {
  const spans = wordSpans(text);
  const kwSeq = tokenize(ctx.kw.text).map((w) => ctx.an.stem(w));
  const uses = usesIn(spans, kwSeq, ctx.an.stem);
  if (uses.length !== 1 || !kwSeq.length) return null;
  const [from, to] = uses[0]!;
  const tail = text.slice(spans[to - 1]!.end);
  if (to === spans.length && /^[\s?.!]*$/u.test(tail)) {
    const head = text.slice(0, spans[from]!.start);
    const attach = (ATTACH[ctx.lang] ?? ATTACH.en!).exec(head);
    const kept = attach ? head.slice(0, attach.index).trimEnd() : '';
    // What is left reads as a heading only when it is a phrase, not a clause cut short ("Awarie,
    // które zdarzają się"): no comma, at most five words.
    return kept && !/[,;]/u.test(kept) && tokenize(kept).length <= 5 ? `${kept}${tail.trim()}` : null;
  }
  const joint = from === 0 ? LEAD_JOINT.exec(tail) : null;
  if (!joint) return null;
  const rest = tail.slice(joint[0].length);
  return rest.charAt(0).toLocaleUpperCase(ctx.lang) + rest.slice(1);
};
