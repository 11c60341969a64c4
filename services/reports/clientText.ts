import { unescape } from 'html-escaper';
import sanitizeHtml from 'sanitize-html';

/**
 * The longest quotation a report shows. The engine may cut a quoted sentence at a fixed length,
 * mid-word; every quotation longer than this is cut again here, at a word boundary, so none ends
 * in half a word whatever the engine did. Kept below the engine's own cut (90 characters).
 */
export const QUOTE_MAX = 80;

// A quotation in English or Polish marks: "…", “…” or „…”.
const QUOTATION = /(["“„])([^"“”„\n]+)(["”])/gu;

/** Text only: a tag (`<p class="byline">`, a script) is dropped, its text kept; entities read back. */
const withoutMarkup = (s: string): string =>
  s.includes('<')
    ? unescape(sanitizeHtml(s, { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' }))
    : s;

/** At most `max` characters, cut after the last whole word, with an ellipsis. */
export const cutAtWord = (s: string, max: number): string => {
  if (s.length <= max) return s;
  const head = s.slice(0, max + 1);
  const space = head.search(/\s\S*$/u);
  const whole = space > 0 ? head.slice(0, space) : s.slice(0, max);
  return `${whole.replace(/[\s,;:–—-]+$/u, '')}…`;
};

/**
 * What a client reads of the engine's explanations (summaries, strengths, problems, titles):
 * plain text with no markup, and quotations cut at a word boundary.
 */
export const clientText = (s: string): string =>
  withoutMarkup(s).replace(QUOTATION, (_m, open: string, inner: string, close: string) =>
    inner.length > QUOTE_MAX ? `${open}${cutAtWord(inner, QUOTE_MAX)}${close}` : `${open}${inner}${close}`,
  );

/** A passage shown whole (BEFORE, AFTER, an anchor): only the markup goes. */
export const passageText = (s: string): string => withoutMarkup(s);
