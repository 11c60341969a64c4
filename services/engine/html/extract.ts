import { Readability } from '@mozilla/readability';
import * as cheerio from 'cheerio';
import { parseHTML } from 'linkedom';
import type { Block, LinkInfo, PageSignals } from '../types.ts';

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
  if (!root || !clean(root.textContent ?? '')) {
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
  const rawOf = (n: DomNode): string => {
    const l = locOf(n);
    return l ? html.slice(l.startOffset, l.endOffset).trim() : '';
  };
  const textOf = (n: DomNode): string => clean(n.textContent ?? '');
  const all = (n: DomNode, sel: string): DomNode[] => Array.from(n.querySelectorAll(sel));
  const altOf = (n: DomNode): string => clean(all(n, 'img')[0]?.getAttribute('alt') ?? '');

  const blocks: Block[] = [];
  const firstKept: { offset: number } = { offset: Infinity };
  const walk = (parent: DomNode) => {
    for (let k = 0; k < parent.children.length; k++) {
      const el = parent.children[k]!;
      const tag = el.localName ?? '';
      // A heading keeps its source level (Readability renames H1 to H2 in its output).
      const srcTag = srcOf(el)?.name ?? tag;
      const raw = (): string => {
        const l = locOf(el);
        if (l) firstKept.offset = Math.min(firstKept.offset, l.startOffset);
        return rawOf(el);
      };
      if (HEADING.test(srcTag) || HEADING.test(tag)) {
        const text = textOf(el);
        if (text) blocks.push({ kind: 'heading', level: Number((HEADING.test(srcTag) ? srcTag : tag).slice(1)), text, raw: raw(), items: [] });
      } else if (tag === 'p') {
        const text = textOf(el);
        if (text) blocks.push({ kind: 'paragraph', level: 0, text, raw: raw(), items: [] });
        else if (all(el, 'img').length) blocks.push({ kind: 'image', level: 0, text: '', raw: raw(), items: [altOf(el)] });
      } else if (tag === 'ul' || tag === 'ol') {
        const items = Array.from(el.children).filter((c) => c.localName === 'li').map(textOf).filter(Boolean);
        if (items.length) blocks.push({ kind: 'list', level: 0, text: items.join('\n'), raw: raw(), items });
      } else if (tag === 'table' || tag === 'dl') {
        const items = all(el, tag === 'table' ? 'th,td' : 'dt,dd').map(textOf).filter(Boolean);
        const rows = tag === 'table' ? all(el, 'tr').map((tr) => Array.from(tr.children).filter((c) => c.localName === 'th' || c.localName === 'td').map(textOf).join(' | ')) : items;
        blocks.push({ kind: 'table', level: 0, text: rows.join('\n'), raw: raw(), items });
      } else if (tag === 'pre') {
        blocks.push({ kind: 'code', level: 0, text: el.textContent ?? '', raw: raw(), items: [] });
      } else if (tag === 'blockquote') {
        const text = textOf(el);
        if (text) blocks.push({ kind: 'quote', level: 0, text, raw: raw(), items: [] });
      } else if (tag === 'figure') {
        blocks.push({ kind: 'image', level: 0, text: '', raw: raw(), items: [altOf(el)] });
      } else if (!['script', 'style', 'noscript', 'template'].includes(tag)) walk(el);
    }
  };
  walk(root!);

  // Readability leaves out the heading that repeats the title (it reports the title separately).
  // The page's first H1, when it stands before the extracted content, is the article's heading.
  const h1 = $('h1').first().get(0) as unknown as SrcNode | undefined;
  const h1Loc = h1?.sourceCodeLocation;
  if (h1 && h1Loc && !blocks.some((b) => b.kind === 'heading' && b.level === 1) && h1Loc.startOffset < firstKept.offset) {
    const text = clean($(h1 as never).text());
    if (text) blocks.unshift({ kind: 'heading', level: 1, text, raw: html.slice(h1Loc.startOffset, h1Loc.endOffset), items: [] });
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
  return { blocks, signals };
};
