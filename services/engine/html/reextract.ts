import { parseHTML } from 'linkedom';
import { snippetToHtml } from '../apply.ts';
import type { Block, Change, PageSignals } from '../types.ts';
import { collectBlocks } from './blocks.ts';
import { clean, ELEMENT_NODE, TEXT_NODE, type DomDocument } from './dom.ts';
import type { HtmlParse } from './extract.ts';

/**
 * Re-scoring a change without re-extracting the page. A recommendation's change touches one block:
 * a replace whose BEFORE lies inside one block's verbatim source, or an addition right before or
 * after one block. When the change stays inside what Readability kept whole, the changed page's
 * main content is the old blocks with that block re-read (or the added blocks read) from the changed
 * source; this gives the same blocks as a full extraction at a fraction of its cost (verified on the
 * corpus in test/unit/engine/rescore.unit.ts). Anything this cannot vouch for returns null, and the
 * caller re-extracts the whole page:
 * - a BEFORE, anchor or AFTER that is not inside one block, or additions at the end of the page;
 * - markup that changes page signals or Readability's choices: links, images, scripts, forms,
 *   buttons, media, line breaks, containers, H1 elements (H1 text may change in place), roles;
 * - a block Readability judged as a top-level sibling of its chosen container (kept or dropped by
 *   its own length and link density), or a page where Readability found no article;
 * - a heading whose new text would make Readability drop it as a duplicate of the title, or keep it
 *   where it dropped it before;
 * - changed markup that does not read back as exactly one block of the same element (or, for an
 *   addition, as whole paragraphs, H2–H6 headings, lists, tables or quotes).
 * Page signals: the page's size and main-text length are recomputed; the body's text length (for the
 * boilerplate share) moves by the change in the block's text.
 */
const UNSAFE =
  /<\s*\/?\s*(a|img|script|style|button|input|select|textarea|h1|iframe|form|video|audio|picture|source|svg|object|embed|figure|noscript|template|link|meta|br|hr|div|section|article|main|header|footer|nav|aside|li|tr|td|th|thead|tbody|dl|dt|dd|pre|code)\b|\brole\s*=/i;
const ADDABLE = /^(p|h[2-6]|ul|ol|table|blockquote)$/;
/** Readability's top-level siblings sit at this depth under its result (root > page div > sibling). */
const SIBLING_DEPTH = 2;

/** Readability's _textSimilarity and _headerDuplicatesTitle (0.6.0), for H1 and H2. */
const duplicatesTitle = (title: string, heading: string): boolean => {
  const tokensA = title.toLowerCase().split(/\W+/g).filter(Boolean);
  const tokensB = heading.toLowerCase().split(/\W+/g).filter(Boolean);
  if (!tokensA.length || !tokensB.length) return false;
  const uniqB = tokensB.filter((tk) => !tokensA.includes(tk));
  return 1 - uniqB.join(' ').length / tokensB.join(' ').length > 0.75;
};

/** Blocks of a markup fragment read as the extraction reads them; null unless every element is one block. */
const fragmentBlocks = (fragment: string, allowed: RegExp): Block[] | null => {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${fragment}</body></html>`) as unknown as {
    document: DomDocument;
  };
  const body = document.body;
  if (!body) return null;
  const nodes = body.childNodes; // built afresh at each read (linkedom): once, not once a node
  for (let k = 0; k < nodes.length; k++) {
    const n = nodes[k]!;
    if (
      n.nodeType === TEXT_NODE
        ? clean(n.textContent ?? '') !== ''
        : n.nodeType === ELEMENT_NODE && !allowed.test(n.localName ?? '')
    )
      return null;
  }
  const blocks = collectBlocks(
    body,
    () => undefined,
    (el) => ({ raw: el.outerHTML ?? '', at: -1 }),
  );
  return blocks.length === body.children.length ? blocks : null;
};

const tagOf = (raw: string): string => (/^<([a-zA-Z][a-zA-Z0-9]*)/.exec(raw)?.[1] ?? '').toLowerCase();

/** A block kept whole by Readability, inside its chosen container. */
const inside = (b: Block) => b.src !== undefined && b.src.at >= 0 && b.src.depth !== SIBLING_DEPTH && b.src.depth >= 0;

/** The blocks after the change, and the main text's length before and after in the changed part. */
interface Rewritten {
  blocks: Block[];
  oldText: number;
  newText: number;
}

/** A replace (or removal) inside one block: that block re-read from its changed source. */
const replaceInBlock = (
  prev: HtmlParse,
  title: string,
  content: string,
  shift: number,
  change: Extract<Change, { kind: 'replace' }>,
): Rewritten | null => {
  if (UNSAFE.test(change.before) || UNSAFE.test(change.after)) return null;
  const i = content.indexOf(change.before);
  if (i < 0) return null;
  // The same span applyChange replaces (a removed sentence takes one neighbouring space with it).
  let start = i;
  let end = i + change.before.length;
  if (change.after === '') {
    if (content[end] === ' ') end++;
    else if (content[start - 1] === ' ') start--;
  }
  const k = prev.blocks.findIndex((b) => inside(b) && b.src!.at <= start && end <= b.src!.at + b.raw.length);
  const b = prev.blocks[k];
  if (!b) return null;
  const at = b.src!.at;
  const raw = b.raw.slice(0, start - at) + change.after + b.raw.slice(end - at);
  const tag = tagOf(b.raw);
  if (!tag || tagOf(raw) !== tag) return null;
  const frag = fragmentBlocks(raw, new RegExp(`^${tag}$`));
  const nb = frag?.length === 1 ? frag[0]! : null;
  if (!nb || nb.kind !== b.kind || nb.level !== b.level) return null;
  if ((tag === 'h1' || tag === 'h2') && duplicatesTitle(title, nb.text) !== duplicatesTitle(title, b.text)) return null;
  const blocks = prev.blocks.map((x, j) =>
    j === k ? { ...nb, raw, src: b.src } : j > k && x.src ? { ...x, src: { ...x.src, at: x.src.at + shift } } : x,
  );
  return { blocks, oldText: b.text.length, newText: nb.text.length };
};

/** An addition right before or after one block: the added blocks read from the snippet. */
const addNextToBlock = (
  prev: HtmlParse,
  title: string,
  content: string,
  changed: string,
  shift: number,
  change: Extract<Change, { kind: 'insert' }>,
): Rewritten | null => {
  if (change.placement === 'end') return null;
  const snippet = snippetToHtml(change.after);
  if (UNSAFE.test(snippet)) return null;
  const i = content.indexOf(change.anchor);
  if (i < 0) return null;
  const point = change.placement === 'before' ? i : i + change.anchor.length;
  const k = prev.blocks.findIndex(
    (b) => inside(b) && (change.placement === 'before' ? b.src!.at === point : b.src!.at + b.raw.length === point),
  );
  const b = prev.blocks[k];
  if (!b || b.src!.depth < 3) return null;
  const frag = fragmentBlocks(snippet, ADDABLE);
  if (!frag?.length || frag.some((x) => x.kind === 'heading' && x.level <= 2 && duplicatesTitle(title, x.text)))
    return null;
  let cursor = changed.indexOf(snippet, point);
  const added = frag.map((x) => {
    const at = changed.indexOf(`<${tagOf(x.raw)}`, cursor);
    cursor = at + 1;
    return { ...x, src: { at, depth: b.src!.depth } };
  });
  const at = change.placement === 'before' ? k : k + 1;
  const blocks = [
    ...prev.blocks.slice(0, at),
    ...added,
    ...prev.blocks.slice(at).map((x) => (x.src ? { ...x, src: { ...x.src, at: x.src.at + shift } } : x)),
  ];
  // The source separates the addition from its neighbour with a line break: one more space of body text.
  return { blocks, oldText: 0, newText: added.reduce((n, x) => n + x.text.length + 1, 0) };
};

export const reextractHtml = (prev: HtmlParse, content: string, changed: string, change: Change): HtmlParse | null => {
  if (prev.articleTitle === null) return null;
  const title = prev.articleTitle;
  const shift = changed.length - content.length;
  const r =
    change.kind === 'replace'
      ? replaceInBlock(prev, title, content, shift, change)
      : addNextToBlock(prev, title, content, changed, shift, change);
  if (!r) return null;
  const mainText = r.blocks.map((x) => x.text).join(' ');
  const signals: PageSignals = {
    ...prev.signals,
    htmlBytes: changed.length,
    mainTextChars: mainText.length,
    bodyTextChars: prev.signals.bodyTextChars + r.newText - r.oldText,
  };
  return { blocks: r.blocks, signals, articleTitle: title, bounded: false };
};
