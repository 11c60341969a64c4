import { Readability } from '@mozilla/readability';
import * as cheerio from 'cheerio';
import { parseHTML } from 'linkedom';
import { snippetToHtml } from '../apply.ts';
import type { Block, Change, LinkInfo, PageSignals } from '../types.ts';

/**
 * Fetched HTML → main-content blocks plus page signals.
 *
 * Main content: @mozilla/readability (Firefox Reader View's algorithm) over a linkedom DOM decides
 * which elements are the article; the engine does not guess it. Page signals (title, meta
 * description, canonical, `lang`, JSON-LD, author, dates, H1 count, body text for the boilerplate
 * share, site links, inline scripts) are read from the whole document with cheerio.
 *
 * Verbatim source slices: the page is parsed once by cheerio (parse5, with source locations) and
 * a `data-eng-i` index is written into every start tag of the source; that marked copy is what
 * linkedom parses and Readability reduces. Elements Readability keeps still carry their index (it copies attributes when it renames
 * a tag), so each block maps back to its exact source slice, which BEFORE texts and insert anchors
 * use. Paragraphs Readability creates itself (loose text in a <div>) carry no index; their slice
 * spans their child nodes, whose text nodes were mapped to the source before Readability ran.
 */

const ID = 'data-eng-i';
const HEADING = /^h[1-6]$/;
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

export interface HtmlParse {
  blocks: Block[];
  signals: PageSignals;
  /** Readability's article title (its duplicate-heading rule uses it); null when it found no article. */
  articleTitle: string | null;
}

interface Loc { startOffset: number; endOffset: number }
interface SrcNode { type: string; name?: string; data?: string; children?: SrcNode[]; sourceCodeLocation?: Loc | null }
/** The DOM members used on linkedom nodes (the project compiles without the DOM lib). */
interface DomNode {
  nodeType: number;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  children: ArrayLike<DomNode>;
  getAttribute: (name: string) => string | null;
  querySelectorAll: (sel: string) => ArrayLike<DomNode>;
  outerHTML?: string;
}
interface DomDocument { body: DomNode | null; querySelectorAll: (sel: string) => ArrayLike<DomNode> }

const hostOf = (url: string | null): string => {
  if (!url) return '';
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
};

/** Parses the marked page with linkedom and maps its text nodes to source offsets (via the parent's index). */
const domOf = (marked: string, src: SrcNode[]): { document: DomDocument; textLoc: Map<DomNode, Loc> } => {
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
      if (d.nodeType === TEXT_NODE && c.type === 'text' && c.sourceCodeLocation && d.textContent === c.data) textLoc.set(d, c.sourceCodeLocation);
    }
  }
  return { document, textLoc };
};


const textOf = (n: DomNode): string => clean(n.textContent ?? '');
const all = (n: DomNode, sel: string): DomNode[] => Array.from(n.querySelectorAll(sel));
const altOf = (n: DomNode): string => clean(all(n, 'img')[0]?.getAttribute('alt') ?? '');

/**
 * The main content's blocks, in document order. `srcTagOf` gives an element's tag in the source
 * (Readability renames H1 to H2), `rawOf` its verbatim source slice and offset.
 */
const collectBlocks = (root: DomNode, srcTagOf: (el: DomNode) => string | undefined, rawOf: (el: DomNode) => { raw: string; at: number }): Block[] => {
  const blocks: Block[] = [];
  const push = (el: DomNode, depth: number, b: Omit<Block, 'raw' | 'src'>) => {
    const { raw, at } = rawOf(el);
    blocks.push({ ...b, raw, src: { at, depth } });
  };
  const walk = (parent: DomNode, depth: number) => {
    for (let k = 0; k < parent.children.length; k++) {
      const el = parent.children[k]!;
      const tag = el.localName ?? '';
      // A heading keeps its source level (Readability renames H1 to H2 in its output).
      const srcTag = srcTagOf(el) ?? tag;
      if (HEADING.test(srcTag) || HEADING.test(tag)) {
        const text = textOf(el);
        if (text) push(el, depth, { kind: 'heading', level: Number((HEADING.test(srcTag) ? srcTag : tag).slice(1)), text, items: [] });
      } else if (tag === 'p') {
        const text = textOf(el);
        if (text) push(el, depth, { kind: 'paragraph', level: 0, text, items: [] });
        else if (all(el, 'img').length) push(el, depth, { kind: 'image', level: 0, text: '', items: [altOf(el)] });
      } else if (tag === 'ul' || tag === 'ol') {
        const items = Array.from(el.children).filter((c) => c.localName === 'li').map(textOf).filter(Boolean);
        if (items.length) push(el, depth, { kind: 'list', level: 0, text: items.join('\n'), items });
      } else if (tag === 'table' || tag === 'dl') {
        const items = all(el, tag === 'table' ? 'th,td' : 'dt,dd').map(textOf).filter(Boolean);
        const rows = tag === 'table' ? all(el, 'tr').map((tr) => Array.from(tr.children).filter((c) => c.localName === 'th' || c.localName === 'td').map(textOf).join(' | ')) : items;
        push(el, depth, { kind: 'table', level: 0, text: rows.join('\n'), items });
      } else if (tag === 'pre') {
        push(el, depth, { kind: 'code', level: 0, text: el.textContent ?? '', items: [] });
      } else if (tag === 'blockquote') {
        const text = textOf(el);
        if (text) push(el, depth, { kind: 'quote', level: 0, text, items: [] });
      } else if (tag === 'figure') {
        push(el, depth, { kind: 'image', level: 0, text: '', items: [altOf(el)] });
      } else if (!['script', 'style', 'noscript', 'template'].includes(tag)) walk(el, depth + 1);
    }
  };
  walk(root, 1);
  return blocks;
};

export const extractHtml = (html: string, url: string | null): HtmlParse => {
  const $ = cheerio.load(html, { sourceCodeLocationInfo: true } as cheerio.CheerioOptions);
  // The marked copy: the source with ` data-eng-i="n"` written into each start tag (implied
  // elements such as a missing <tbody> have no start tag and no index).
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
  const marked = parts.join('');

  const srcOf = (n: DomNode): SrcNode | undefined => (n.nodeType === ELEMENT_NODE ? src[Number(n.getAttribute(ID) ?? NaN)] : undefined);

  let { document, textLoc } = domOf(marked, src);
  const article = new Readability<DomNode>(document as never, { serializer: (n) => n as unknown as DomNode, keepClasses: true, disableJSONLD: true }).parse();
  let root: DomNode | null = article?.content ?? null;
  const usedBody = !root || !clean(root.textContent ?? '');
  if (usedBody) {
    // Readability found no article (a near-empty page): the body is taken as it stands.
    ({ document, textLoc } = domOf(marked, src));
    root = document.body;
  }

  // Source span of a node: its own location, else the span of its children (nodes Readability made).
  const locOf = (n: DomNode): Loc | null => {
    const own = srcOf(n)?.sourceCodeLocation ?? (n.nodeType === TEXT_NODE ? textLoc.get(n) : undefined);
    if (own) return own;
    let start = Infinity;
    let end = -Infinity;
    for (let k = 0; k < n.childNodes.length; k++) {
      const l = locOf(n.childNodes[k]!);
      if (l) { start = Math.min(start, l.startOffset); end = Math.max(end, l.endOffset); }
    }
    return end >= start ? { startOffset: start, endOffset: end } : null;
  };

  const firstKept: { offset: number } = { offset: Infinity };
  const blocks = collectBlocks(root!, (el) => srcOf(el)?.name, (el) => {
    const l = locOf(el);
    if (!l) return { raw: '', at: -1 };
    firstKept.offset = Math.min(firstKept.offset, l.startOffset);
    const slice = html.slice(l.startOffset, l.endOffset);
    return { raw: slice.trim(), at: l.startOffset + (slice.length - slice.trimStart().length) };
  });

  // Readability leaves out the heading that repeats the title (it reports the title separately).
  // The page's first H1, when it stands before the extracted content, is the article's heading.
  const h1 = $('h1').first().get(0) as unknown as SrcNode | undefined;
  const h1Loc = h1?.sourceCodeLocation;
  if (h1 && h1Loc && !blocks.some((b) => b.kind === 'heading' && b.level === 1) && h1Loc.startOffset < firstKept.offset) {
    const text = clean($(h1 as never).text());
    if (text) blocks.unshift({ kind: 'heading', level: 1, text, raw: html.slice(h1Loc.startOffset, h1Loc.endOffset), items: [], src: { at: h1Loc.startOffset, depth: 0 } });
  }

  // JSON-LD: parse each block; flatten @graph; remember types, authors, dates, sameAs.
  const jsonLd: unknown[] = [];
  let jsonLdInvalid = 0;
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      const parsed: unknown = JSON.parse($(el).text());
      const list = Array.isArray(parsed) ? parsed : [parsed];
      for (const item of list) {
        const graph = (item as { '@graph'?: unknown[] })['@graph'];
        if (Array.isArray(graph)) jsonLd.push(...graph);
        else jsonLd.push(item);
      }
    } catch {
      jsonLdInvalid++;
    }
  });
  const types: string[] = [];
  let ldAuthor = '';
  let ldPublished = '';
  let ldModified = '';
  let sameAs = 0;
  for (const item of jsonLd) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const t = o['@type'];
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === 'string') types.push(x);
    const a = o.author;
    const first = Array.isArray(a) ? a[0] : a;
    if (!ldAuthor && first && typeof first === 'object' && typeof (first as { name?: unknown }).name === 'string') ldAuthor = (first as { name: string }).name;
    if (!ldAuthor && typeof first === 'string') ldAuthor = first;
    if (!ldPublished && typeof o.datePublished === 'string') ldPublished = o.datePublished;
    if (!ldModified && typeof o.dateModified === 'string') ldModified = o.dateModified;
    const sa = o.sameAs ?? (first && typeof first === 'object' ? (first as { sameAs?: unknown }).sameAs : undefined);
    if (Array.isArray(sa)) sameAs += sa.length;
    else if (typeof sa === 'string') sameAs++;
  }

  // Links and images of the main content: the elements Readability kept, with their source
  // attributes (Readability rewrites relative addresses, which would hide internal links).
  const host = hostOf(url);
  const attr = (n: DomNode, name: string): string => {
    const s = srcOf(n) as { attribs?: Record<string, string> } | undefined;
    return s?.attribs?.[name] ?? n.getAttribute(name) ?? '';
  };
  const links: LinkInfo[] = [];
  for (const a of all(root!, 'a[href]')) {
    const href = attr(a, 'href');
    const linkHost = hostOf(/^https?:/i.test(href) ? href : null);
    links.push({ href, text: textOf(a), rel: attr(a, 'rel'), internal: !/^https?:/i.test(href) || (host !== '' && linkHost === host) });
  }
  // Site links (about, contact, privacy) usually sit in the footer: read them from the whole page.
  $('footer a[href], nav a[href], header a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    links.push({ href, text: clean($(el).text()), rel: $(el).attr('rel') ?? 'site', internal: !/^https?:/i.test(href) || hostOf(href) === host });
  });
  const images = all(root!, 'img').map((el) => ({ src: attr(el, 'src'), alt: clean(attr(el, 'alt')) }));

  let inlineScriptBytes = 0;
  $('script:not([src])').each((_, el) => {
    if (($(el).attr('type') ?? '') !== 'application/ld+json') inlineScriptBytes += $(el).text().length;
  });

  const actions = $('button, input[type="submit"], input[type="button"], [role="button"]')
    .map((_, el) => clean($(el).text() || ($(el).attr('value') ?? '')))
    .get()
    .filter(Boolean);

  // Author: declared metadata first, then the byline Readability found (rel=author, byline classes).
  const author = clean($('meta[name="author"]').attr('content') ?? '') || ldAuthor || clean($('[rel="author"]').first().text()) || clean(article?.byline ?? '');
  const mainText = blocks.map((b) => b.text).join(' ');
  const canonical = $('link[rel="canonical"]').attr('href') ?? '';
  const signals: PageSignals = {
    isHtml: true,
    htmlBytes: html.length,
    mainTextChars: mainText.length,
    bodyTextChars: clean($('body').text()).length || mainText.length,
    titleTag: clean($('title').first().text()),
    metaDescription: clean($('meta[name="description"]').attr('content') ?? ''),
    canonical: clean(canonical),
    langAttr: ($('html').attr('lang') ?? '').toLowerCase().slice(0, 2),
    h1Count: $('h1').length,
    jsonLd,
    jsonLdInvalid,
    jsonLdTypes: types,
    author: author.slice(0, 200),
    datePublished: ldPublished || ($('meta[property="article:published_time"]').attr('content') ?? '') || ($('time[datetime]').first().attr('datetime') ?? ''),
    dateModified: ldModified || ($('meta[property="article:modified_time"]').attr('content') ?? ''),
    links,
    images,
    inlineScriptBytes,
    actions,
    sameAs,
  };
  return { blocks, signals, articleTitle: usedBody ? null : clean(article?.title ?? '') };
};

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
const UNSAFE = /<\s*\/?\s*(a|img|script|style|button|input|select|textarea|h1|iframe|form|video|audio|picture|source|svg|object|embed|figure|noscript|template|link|meta|br|hr|div|section|article|main|header|footer|nav|aside|li|tr|td|th|thead|tbody|dl|dt|dd|pre|code)\b|\brole\s*=/i;
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
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${fragment}</body></html>`) as unknown as { document: DomDocument };
  const body = document.body;
  if (!body) return null;
  for (let k = 0; k < body.childNodes.length; k++) {
    const n = body.childNodes[k]!;
    if (n.nodeType === TEXT_NODE ? clean(n.textContent ?? '') !== '' : n.nodeType === ELEMENT_NODE && !allowed.test(n.localName ?? '')) return null;
  }
  const blocks = collectBlocks(body, () => undefined, (el) => ({ raw: el.outerHTML ?? '', at: -1 }));
  return blocks.length === body.children.length ? blocks : null;
};

const tagOf = (raw: string): string => (/^<([a-zA-Z][a-zA-Z0-9]*)/.exec(raw)?.[1] ?? '').toLowerCase();

export const reextractHtml = (prev: HtmlParse, content: string, changed: string, change: Change): HtmlParse | null => {
  if (prev.articleTitle === null) return null;
  const title = prev.articleTitle;
  const shift = changed.length - content.length;
  const inside = (b: Block) => b.src !== undefined && b.src.at >= 0 && b.src.depth !== SIBLING_DEPTH && b.src.depth >= 0;
  let blocks: Block[];
  let oldText = 0;
  let newText = 0;
  if (change.kind === 'replace') {
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
    blocks = prev.blocks.map((x, j) => (j === k ? { ...nb, raw, src: b.src } : j > k && x.src ? { ...x, src: { ...x.src, at: x.src.at + shift } } : x));
    oldText = b.text.length;
    newText = nb.text.length;
  } else {
    if (change.placement === 'end') return null;
    const snippet = snippetToHtml(change.after);
    if (UNSAFE.test(snippet)) return null;
    const i = content.indexOf(change.anchor);
    if (i < 0) return null;
    const point = change.placement === 'before' ? i : i + change.anchor.length;
    const k = prev.blocks.findIndex((b) => inside(b) && (change.placement === 'before' ? b.src!.at === point : b.src!.at + b.raw.length === point));
    const b = prev.blocks[k];
    if (!b || b.src!.depth < 3) return null;
    const frag = fragmentBlocks(snippet, ADDABLE);
    if (!frag?.length || frag.some((x) => x.kind === 'heading' && x.level <= 2 && duplicatesTitle(title, x.text))) return null;
    let cursor = changed.indexOf(snippet, point);
    const added = frag.map((x) => {
      const at = changed.indexOf(`<${tagOf(x.raw)}`, cursor);
      cursor = at + 1;
      return { ...x, src: { at, depth: b.src!.depth } };
    });
    const at = change.placement === 'before' ? k : k + 1;
    blocks = [...prev.blocks.slice(0, at), ...added, ...prev.blocks.slice(at).map((x) => (x.src ? { ...x, src: { ...x.src, at: x.src.at + shift } } : x))];
    // The source separates the addition from its neighbour with a line break: one more space of body text.
    newText = added.reduce((n, x) => n + x.text.length + 1, 0);
  }
  const mainText = blocks.map((x) => x.text).join(' ');
  const signals: PageSignals = {
    ...prev.signals,
    htmlBytes: changed.length,
    mainTextChars: mainText.length,
    bodyTextChars: prev.signals.bodyTextChars + newText - oldText,
  };
  return { blocks, signals, articleTitle: title };
};
