/**
 * Caps how deep Markdown containers nest on one line before marked reads it. marked reads a
 * blockquote or a list item by calling itself on its content, so `>>>>…` or `- - - …` nests one
 * call per marker: 200,000 `>` (a valid submission) overflowed the stack and failed the apply
 * preview. Beyond MAX_NESTING markers at a line's start, the next marker is escaped (`\>`, `\-`,
 * `1\.`) and the rest of the line is text, as the engine's own parser reads it. Real articles nest
 * a few levels, so their text comes back unchanged, byte for byte (the same idea as the engine's
 * html/boundDepth.ts for a page's elements).
 */
export const MAX_NESTING = 32;

/** A container marker at `i` (after any indentation): its length, or 0. */
const markerAt = (line: string, i: number): number => {
  if (line[i] === '>') return 1;
  const m = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/.exec(line.slice(i, i + 11));
  return m ? m[0].length : 0;
};

const boundLine = (line: string): string => {
  let i = 0;
  for (let depth = 0; ; depth++) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const n = markerAt(line, i);
    if (n === 0) return line;
    if (depth === MAX_NESTING) return `${line.slice(0, i + n - 1)}\\${line.slice(i + n - 1)}`;
    i += n;
  }
};

export const boundNesting = (markdown: string): string => {
  if (!/^[ \t]*(?:>|[-*+\d])/m.test(markdown)) return markdown;
  return markdown.split('\n').map(boundLine).join('\n');
};
