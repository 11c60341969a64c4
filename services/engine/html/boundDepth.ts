import { Tokenizer } from 'htmlparser2';

/**
 * Caps how deep a page's elements nest before any real parse. parse5 (cheerio) checks the open
 * elements at every start tag and Readability scores each element against its ancestors, so both
 * grow with depth times elements: 40,000 nested <div>s took parse5 20 s, a 2,000-deep chain took
 * Readability 77 s and 8,000 overflowed its stack (issue 22). Beyond WRAPPER_DEPTH the tags of
 * wrappers the engine does not read (div, span, b, ...) are cut out of the source; beyond
 * HARD_DEPTH every tag is; the text stays, in the element at the cap. A browser caps its tree too
 * (Chromium at 512). Real articles sit far above these depths, so their source comes back
 * unchanged, byte for byte.
 *
 * The pass is htmlparser2's tokenizer with a stack of our own: its Parser keeps the open elements
 * with Array#shift/unshift, quadratic on exactly these pages. The stack follows the HTML rules
 * that matter for depth (void elements, implied ends of p and list items, stray end tags) closely
 * enough to bound it; it is not a tree builder.
 */
export const WRAPPER_DEPTH = 24;
export const HARD_DEPTH = 40;

/** Tags whose structure the engine reads (blocks, headings, lists, tables, links, media). */
const STRUCTURAL = new Set(
  'h1 h2 h3 h4 h5 h6 p ul ol li dl dt dd table thead tbody tfoot tr td th caption a img picture figure figcaption blockquote pre code strong em main article time address script style template'.split(
    ' ',
  ),
);
const VOID = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));
/** An open element of this name ends when one of these starts (the HTML parser's implied ends). */
const ENDED_BY: Record<string, Set<string>> = {
  p: new Set(
    'address article aside blockquote details div dl fieldset figure footer form h1 h2 h3 h4 h5 h6 header hr main nav ol p pre section table ul li'.split(
      ' ',
    ),
  ),
  li: new Set(['li']),
  dt: new Set(['dt', 'dd']),
  dd: new Set(['dt', 'dd']),
  option: new Set(['option', 'optgroup']),
  tr: new Set(['tr']),
  td: new Set(['td', 'th', 'tr']),
  th: new Set(['td', 'th', 'tr']),
};
/** An end tag looks this far down the stack for its element; further is a stray tag, ignored. */
const END_TAG_REACH = 16;

interface Open {
  name: string;
  cut: boolean;
}

export const boundDepth = (html: string): string => {
  if (!mayNestPast(html, WRAPPER_DEPTH)) return html;
  const cuts = deepTagSpans(html);
  if (cuts.length === 0) return html;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of cuts) {
    if (start < at) continue;
    parts.push(html.slice(at, start));
    at = end;
  }
  parts.push(html.slice(at));
  return parts.join('');
};

/** Fewer tags than the cap cannot nest past it: most pages end here, without a pass. */
const mayNestPast = (html: string, depth: number): boolean => {
  let tags = 0;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) if (++tags > depth) return true;
  return false;
};

/** [start, end) of every tag to cut, in source order, in one linear pass. */
const deepTagSpans = (html: string): Array<[number, number]> => {
  const cuts: Array<[number, number]> = [];
  const stack: Open[] = [];
  let kept = 0; // elements on the stack whose tags stay: the depth of the resulting tree
  let tag: { name: string; start: number; cut: boolean } | null = null;
  const pop = () => {
    const top = stack.pop();
    if (top && !top.cut) kept--;
    return top;
  };
  const open = (endIndex: number, selfClosing: boolean) => {
    if (!tag) return;
    if (tag.cut) cuts.push([tag.start, endIndex + 1]);
    if (!VOID.has(tag.name) && !selfClosing) {
      stack.push({ name: tag.name, cut: tag.cut });
      if (!tag.cut) kept++;
    }
    tag = null;
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, endIndex) {
        const name = html.slice(start, endIndex).toLowerCase();
        while (stack.length && ENDED_BY[stack[stack.length - 1]!.name]?.has(name)) pop();
        const cut = !VOID.has(name) && (kept >= HARD_DEPTH || (kept >= WRAPPER_DEPTH && !STRUCTURAL.has(name)));
        tag = { name, start: start - 1, cut };
      },
      onopentagend: (endIndex) => open(endIndex, false),
      onselfclosingtag: (endIndex) => open(endIndex, true),
      onclosetag(start, endIndex) {
        const name = html.slice(start, endIndex).toLowerCase();
        const end = html.indexOf('>', endIndex);
        const span: [number, number] = [start - 2, end === -1 ? html.length : end + 1];
        for (let k = stack.length - 1; k >= 0 && k >= stack.length - END_TAG_REACH; k--) {
          if (stack[k]!.name !== name) continue;
          while (stack.length > k + 1) pop();
          if (pop()!.cut) cuts.push(span);
          return;
        }
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return cuts;
};
