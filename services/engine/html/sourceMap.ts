import type * as cheerio from 'cheerio';
import { parseHTML } from 'linkedom';
import { ELEMENT_NODE, TEXT_NODE, type DomDocument, type DomNode, type Loc, type SrcNode } from './dom.ts';

/**
 * Verbatim source slices: the page is parsed once by cheerio (parse5, with source locations) and
 * a `data-eng-i` index is written into every start tag of the source; that marked copy is what
 * linkedom parses and Readability reduces. Elements Readability keeps still carry their index (it
 * copies attributes when it renames a tag), so each block maps back to its exact source slice,
 * which BEFORE texts and insert anchors use. Paragraphs Readability creates itself (loose text in
 * a <div>) carry no index; their slice spans their child nodes, whose text nodes were mapped to
 * the source before Readability ran.
 */

const ID = 'data-eng-i';

/** The source with ` data-eng-i="n"` written into each start tag, and the source nodes by index. */
export const markSource = (html: string, $: cheerio.CheerioAPI): { marked: string; src: SrcNode[] } => {
  // Implied elements such as a missing <tbody> have no start tag and no index.
  const src: SrcNode[] = [];
  const parts: string[] = [];
  let at = 0;
  $('*').each((i, el) => {
    const node = el as unknown as SrcNode & { sourceCodeLocation?: { startTag?: Loc } | null };
    src.push(node);
    const tag = node.sourceCodeLocation?.startTag;
    if (!tag || tag.startOffset < at) return;
    const cut = tag.startOffset + 1 + (node.name ?? '').length;
    parts.push(html.slice(at, cut), ` ${ID}="${i}"`);
    at = cut;
  });
  parts.push(html.slice(at));
  return { marked: parts.join(''), src };
};

/** Parses the marked page with linkedom and maps its text nodes to source offsets (via the parent's index). */
export const domOf = (marked: string, src: SrcNode[]): { document: DomDocument; textLoc: Map<DomNode, Loc> } => {
  const { document } = parseHTML(marked) as unknown as { document: DomDocument };
  const textLoc = new Map<DomNode, Loc>();
  const els = document.querySelectorAll(`[${ID}]`);
  for (let i = 0; i < els.length; i++) {
    const el = els[i]!;
    const s = src[Number(el.getAttribute(ID))];
    const sk = s?.children ?? [];
    const dk = el.childNodes;
    if (sk.length !== dk.length) continue;
    for (let k = 0; k < dk.length; k++) {
      const d = dk[k]!;
      const c = sk[k]!;
      if (d.nodeType === TEXT_NODE && c.type === 'text' && c.sourceCodeLocation && d.textContent === c.data)
        textLoc.set(d, c.sourceCodeLocation);
    }
  }
  return { document, textLoc };
};

/** The source node of a DOM element (by its index), none for text and unindexed elements. */
export const sourceNodeOf =
  (src: SrcNode[]) =>
  (n: DomNode): SrcNode | undefined =>
    n.nodeType === ELEMENT_NODE ? src[Number(n.getAttribute(ID) ?? NaN)] : undefined;

/** Source span of a node: its own location, else the span of its children (nodes Readability made). */
export const sourceSpanOf = (srcOf: (n: DomNode) => SrcNode | undefined, textLoc: Map<DomNode, Loc>) => {
  const locOf = (n: DomNode): Loc | null => {
    const own = srcOf(n)?.sourceCodeLocation ?? (n.nodeType === TEXT_NODE ? textLoc.get(n) : undefined);
    if (own) return own;
    let start = Infinity;
    let end = -Infinity;
    const kids = n.childNodes; // built afresh at each read (linkedom): once, not once a child
    for (let k = 0; k < kids.length; k++) {
      const l = locOf(kids[k]!);
      if (l) {
        start = Math.min(start, l.startOffset);
        end = Math.max(end, l.endOffset);
      }
    }
    return end >= start ? { startOffset: start, endOffset: end } : null;
  };
  return locOf;
};
