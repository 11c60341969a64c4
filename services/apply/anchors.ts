import { stripInline } from '../engine/text/markdown.ts';

/**
 * The one anchor rule, for the table of contents apply writes and for the heading ids of the
 * preview, in every language: GitHub's rule (lower case, punctuation dropped, spaces to hyphens),
 * letters kept as they are. Transliterating is what made Polish anchors inconsistent (NFKD turns
 * "ą" into "a" but leaves "ł"); keeping letters has no such exceptions.
 */
export const anchorOf = (heading: string): string =>
  stripInline(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

/**
 * The anchors of one document's headings, asked in document order: a repeated heading gets -1,
 * -2, … as on GitHub. One counter per document, for the table of contents and the preview alike.
 */
export const anchorCounter = (): ((heading: string) => string) => {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = anchorOf(heading);
    let slug = base;
    while (seen.has(slug)) {
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      slug = `${base}-${n}`;
    }
    seen.set(slug, 0);
    return slug;
  };
};

export const anchorsOf = (headings: readonly string[]): string[] => headings.map(anchorCounter());
