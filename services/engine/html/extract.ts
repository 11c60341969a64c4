import * as cheerio from 'cheerio';
import type { Block, LinkInfo, PageSignals } from '../types.ts';

/**
 * Fetched HTML → main-content blocks plus page signals (title, JSON-LD, author, dates, links,
 * images, scripts). The main content is the first <article>, <main> or [role=main], else <body>;
 * navigation, header, footer, aside and forms inside it are skipped. Each block keeps its verbatim
 * source slice (parse5 source locations) for BEFORE texts and insert anchors.
 */

const BLOCK_SELECTOR = 'h1,h2,h3,h4,h5,h6,p,ul,ol,table,pre,blockquote,dl,figure';
const CONTAINERS = new Set(['p', 'ul', 'ol', 'table', 'pre', 'blockquote', 'dl', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li']);
const SKIP = new Set(['nav', 'header', 'footer', 'aside', 'form', 'script', 'style', 'noscript', 'template']);

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

export interface HtmlParse {
  blocks: Block[];
  signals: PageSignals;
}

type AnyNode = { type: string; name?: string; parent?: AnyNode | null; sourceCodeLocation?: { startOffset: number; endOffset: number } };

const hostOf = (url: string | null): string => {
  if (!url) return '';
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
};

export const extractHtml = (html: string, url: string | null): HtmlParse => {
  const $ = cheerio.load(html, { sourceCodeLocationInfo: true } as cheerio.CheerioOptions);
  const mainSel = $('article').first().length ? $('article').first() : $('main').first().length ? $('main').first() : $('[role=main]').first().length ? $('[role=main]').first() : $('body').first();
  const main = mainSel.length ? mainSel : $("html").first();
  const mainNode = main.get(0) as unknown as AnyNode | undefined;

  // Walks up to the main element; tells whether the node sits in a container or skipped region.
  const placement = (node: AnyNode): 'ok' | 'nested' | 'skipped' => {
    let p = node.parent ?? null;
    let nested = false;
    while (p && p !== mainNode) {
      if (p.type === 'tag' && p.name) {
        if (SKIP.has(p.name)) return 'skipped';
        if (CONTAINERS.has(p.name)) nested = true;
      }
      p = p.parent ?? null;
    }
    return nested ? 'nested' : 'ok';
  };
  const rawOf = (node: AnyNode): string => {
    const loc = node.sourceCodeLocation;
    return loc ? html.slice(loc.startOffset, loc.endOffset) : '';
  };

  const blocks: Block[] = [];
  main.find(BLOCK_SELECTOR).each((_, el) => {
    const node = el as unknown as AnyNode;
    if (placement(node) !== 'ok') return;
    const $el = $(el);
    const name = node.name ?? '';
    const raw = rawOf(node);
    if (/^h[1-6]$/.test(name)) {
      const text = clean($el.text());
      if (text) blocks.push({ kind: 'heading', level: Number(name.slice(1)), text, raw, items: [] });
    } else if (name === 'p') {
      const text = clean($el.text());
      if (text) blocks.push({ kind: 'paragraph', level: 0, text, raw, items: [] });
      else if ($el.find('img').length) blocks.push({ kind: 'image', level: 0, text: '', raw, items: [clean($el.find('img').attr('alt') ?? '')] });
    } else if (name === 'ul' || name === 'ol') {
      const items = $el.children('li').map((__, li) => clean($(li).text())).get().filter(Boolean);
      if (items.length) blocks.push({ kind: 'list', level: 0, text: items.join('\n'), raw, items });
    } else if (name === 'table' || name === 'dl') {
      const items = $el.find(name === 'table' ? 'th,td' : 'dt,dd').map((__, c) => clean($(c).text())).get().filter(Boolean);
      const rows = name === 'table' ? $el.find('tr').map((__, tr) => $(tr).find('th,td').map((___, c) => clean($(c).text())).get().join(' | ')).get() : items;
      blocks.push({ kind: 'table', level: 0, text: rows.join('\n'), raw, items });
    } else if (name === 'pre') {
      blocks.push({ kind: 'code', level: 0, text: $el.text(), raw, items: [] });
    } else if (name === 'blockquote') {
      const text = clean($el.text());
      if (text) blocks.push({ kind: 'quote', level: 0, text, raw, items: [] });
    } else if (name === 'figure') {
      blocks.push({ kind: 'image', level: 0, text: '', raw, items: [clean($el.find('img').attr('alt') ?? '')] });
    }
  });

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

  const host = hostOf(url);
  const links: LinkInfo[] = [];
  main.find('a[href]').each((_, el) => {
    if (placement(el as unknown as AnyNode) === 'skipped') return;
    const href = $(el).attr('href') ?? '';
    const linkHost = hostOf(/^https?:/i.test(href) ? href : null);
    links.push({ href, text: clean($(el).text()), rel: $(el).attr('rel') ?? '', internal: !/^https?:/i.test(href) || (host !== '' && linkHost === host) });
  });
  // Site links (about, contact, privacy) usually sit in the footer: read them from the whole page.
  $('footer a[href], nav a[href], header a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    links.push({ href, text: clean($(el).text()), rel: $(el).attr('rel') ?? 'site', internal: !/^https?:/i.test(href) || hostOf(href) === host });
  });
  const images = main.find('img').map((_, el) => ({ src: $(el).attr('src') ?? '', alt: clean($(el).attr('alt') ?? '') })).get();

  let inlineScriptBytes = 0;
  $('script:not([src])').each((_, el) => {
    if (($(el).attr('type') ?? '') !== 'application/ld+json') inlineScriptBytes += $(el).text().length;
  });

  const author = clean($('meta[name="author"]').attr('content') ?? '') || ldAuthor || clean($('[rel="author"]').first().text()) || clean($('.author, .byline, [itemprop="author"]').first().text());
  const mainText = blocks.map((b) => b.text).join(' ');
  const signals: PageSignals = {
    isHtml: true,
    htmlBytes: html.length,
    mainTextChars: mainText.length,
    bodyTextChars: clean($('body').text()).length || mainText.length,
    titleTag: clean($('title').first().text()),
    metaDescription: clean($('meta[name="description"]').attr('content') ?? ''),
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
    sameAs,
  };
  return { blocks, signals };
};
