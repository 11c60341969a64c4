import type * as cheerio from 'cheerio';
import type { Block, LinkInfo, PageSignals } from '../types.ts';
import { hostOf } from '../../../core/host.ts';
import { all, clean, textOf, type DomNode, type SrcNode } from './dom.ts';
import { readJsonLd } from './jsonLd.ts';

/** Page signals: the main content's links and images, and what the whole page declares (cheerio). */

/**
 * Links and images of the main content: the elements Readability kept, with their source
 * attributes (Readability rewrites relative addresses, which would hide internal links). Site links
 * (about, contact, privacy) usually sit in the footer: they are read from the whole page.
 */
const linksAndImages = (
  $: cheerio.CheerioAPI,
  root: DomNode,
  srcOf: (n: DomNode) => SrcNode | undefined,
  url: string | null,
): Pick<PageSignals, 'links' | 'images'> => {
  const host = hostOf(url);
  const attr = (n: DomNode, name: string): string => {
    const s = srcOf(n) as { attribs?: Record<string, string> } | undefined;
    return s?.attribs?.[name] ?? n.getAttribute(name) ?? '';
  };
  const links: LinkInfo[] = [];
  for (const a of all(root, 'a[href]')) {
    const href = attr(a, 'href');
    const linkHost = hostOf(/^https?:/i.test(href) ? href : null);
    links.push({
      href,
      text: textOf(a),
      rel: attr(a, 'rel'),
      internal: !/^https?:/i.test(href) || (host !== null && linkHost === host),
    });
  }
  $('footer a[href], nav a[href], header a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    links.push({
      href,
      text: clean($(el).text()),
      rel: $(el).attr('rel') ?? 'site',
      internal: !/^https?:/i.test(href) || hostOf(href) === host,
    });
  });
  const images = all(root, 'img').map((el) => ({ src: attr(el, 'src'), alt: clean(attr(el, 'alt')) }));
  return { links, images };
};

const inlineScriptBytesOf = ($: cheerio.CheerioAPI): number => {
  let bytes = 0;
  $('script:not([src])').each((_, el) => {
    if (($(el).attr('type') ?? '') !== 'application/ld+json') bytes += $(el).text().length;
  });
  return bytes;
};

const actionsOf = ($: cheerio.CheerioAPI): string[] =>
  $('button, input[type="submit"], input[type="button"], [role="button"]')
    .map((_, el) => clean($(el).text() || ($(el).attr('value') ?? '')))
    .get()
    .filter(Boolean);

export interface SignalSources {
  $: cheerio.CheerioAPI;
  html: string;
  url: string | null;
  blocks: Block[];
  /** The extracted main content (Readability's, or the body). */
  root: DomNode;
  srcOf: (n: DomNode) => SrcNode | undefined;
  /** The byline Readability found. */
  byline: string | null | undefined;
}

export const pageSignals = ({ $, html, url, blocks, root, srcOf, byline }: SignalSources): PageSignals => {
  const ld = readJsonLd($);
  const { links, images } = linksAndImages($, root, srcOf, url);
  const inlineScriptBytes = inlineScriptBytesOf($);
  const actions = actionsOf($);
  // Author: declared metadata first, then the byline Readability found (rel=author, byline classes).
  const author =
    clean($('meta[name="author"]').attr('content') ?? '') ||
    ld.author ||
    clean($('[rel="author"]').first().text()) ||
    clean(byline ?? '');
  const mainText = blocks.map((b) => b.text).join(' ');
  const canonical = $('link[rel="canonical"]').attr('href') ?? '';
  return {
    isHtml: true,
    htmlBytes: html.length,
    mainTextChars: mainText.length,
    bodyTextChars: clean($('body').text()).length || mainText.length,
    titleTag: clean($('title').first().text()),
    metaDescription: clean($('meta[name="description"]').attr('content') ?? ''),
    canonical: clean(canonical),
    langAttr: ($('html').attr('lang') ?? '').toLowerCase().slice(0, 2),
    h1Count: $('h1').length,
    jsonLd: ld.items,
    jsonLdInvalid: ld.invalid,
    jsonLdTypes: ld.types,
    author: author.slice(0, 200),
    datePublished:
      ld.published ||
      ($('meta[property="article:published_time"]').attr('content') ?? '') ||
      ($('time[datetime]').first().attr('datetime') ?? ''),
    dateModified: ld.modified || ($('meta[property="article:modified_time"]').attr('content') ?? ''),
    links,
    images,
    inlineScriptBytes,
    actions,
    sameAs: ld.sameAs,
  };
};
