import { Marked, type Token } from 'marked';
import { anchorCounter } from './anchors.ts';
import { boundNesting } from './markdownDepth.ts';

/**
 * Markdown as a reader sees it, by marked (GFM): headings carry ids by the one anchor rule, so the
 * table of contents apply writes links to them. The HTML is not sanitised here (the article may
 * hold raw HTML): the preview sanitises the whole document.
 */
export interface MarkdownHtml {
  /** The top-level blocks of a text (blank lines dropped), each with its verbatim source. */
  blocks(markdown: string): Token[];
  /** One block as HTML; headings numbered in the order they are rendered. */
  render(block: Token): string;
  /** A snippet (a card's BEFORE or AFTER) as HTML, its headings without ids. */
  snippet(markdown: string): string;
}

export const markdownHtml = (): MarkdownHtml => {
  const next = anchorCounter();
  const page = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }) {
        return `<h${depth} id="${next(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const plain = new Marked({ gfm: true });
  return {
    blocks: (markdown) => page.lexer(boundNesting(markdown)).filter((t) => t.type !== 'space'),
    render: (block) => page.parser([block]),
    snippet: (markdown) => plain.parse(boundNesting(markdown), { async: false }),
  };
};

/** A block that is JSON-LD: page code for the head, not text of the article. */
// A JSON-LD opening as group 1, else a `<script` up to its `>` (or the end), which every later start
// before that `>` fails on too: skipped whole, not scanned again from each (quadratic on a flood).
const JSON_LD_OPEN = /(<script[^>]*type=["']?application\/ld\+json)|<script[^>]*/gi;
export const isJsonLd = (block: Token): boolean =>
  block.type === 'html' && [...block.raw.matchAll(JSON_LD_OPEN)].some((m) => m[1] !== undefined);

/** The JSON of a JSON-LD block, indented for reading (as written when it is not valid JSON). */
export const jsonLdText = (raw: string): string => {
  const body = raw
    .replace(/^[\s\S]*?<script[^>]*>/i, '')
    .replace(/<\/script>[\s\S]*$/i, '')
    .trim();
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};
