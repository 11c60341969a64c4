import { Readability } from '@mozilla/readability';
import * as cheerio from 'cheerio';
import type { Block, PageSignals } from '../types.ts';
import { collectBlocks } from './blocks.ts';
import { boundDepth } from './boundDepth.ts';
import { clean, type DomNode, type SrcNode } from './dom.ts';
import { pageSignals } from './pageSignals.ts';
import { domOf, markSource, sourceNodeOf, sourceSpanOf } from './sourceMap.ts';

/**
 * Fetched HTML → main-content blocks plus page signals.
 *
 * Main content: @mozilla/readability (Firefox Reader View's algorithm) over a linkedom DOM decides
 * which elements are the article; the engine does not guess it. Each block keeps its verbatim
 * source slice (sourceMap.ts); blocks are read by blocks.ts. Page signals (title, meta
 * description, canonical, `lang`, JSON-LD, author, dates, H1 count, body text for the boilerplate
 * share, site links, inline scripts) are read from the whole document with cheerio
 * (pageSignals.ts). Re-reading one changed block instead of the whole page: reextract.ts.
 */

export interface HtmlParse {
  blocks: Block[];
  signals: PageSignals;
  /** Readability's article title (its duplicate-heading rule uses it); null when it found no article. */
  articleTitle: string | null;
  /** The page nested past boundDepth's caps and was read with its deepest tags cut. */
  bounded: boolean;
}

/** Readability's article over the marked page; the body when it finds none (a near-empty page). */
const mainContent = (marked: string, src: SrcNode[]) => {
  let { document, textLoc } = domOf(marked, src);
  const article = new Readability<DomNode>(document as never, {
    serializer: (n) => n as unknown as DomNode,
    keepClasses: true,
    disableJSONLD: true,
  }).parse();
  let root: DomNode | null = article?.content ?? null;
  const usedBody = !root || !clean(root.textContent ?? '');
  if (usedBody) {
    // Readability changed the DOM it read: the body is taken from a fresh parse, as it stands.
    ({ document, textLoc } = domOf(marked, src));
    root = document.body;
  }
  return { article, root: root!, textLoc, usedBody };
};

/**
 * Readability leaves out the heading that repeats the title (it reports the title separately).
 * The page's first H1, when it stands before the extracted content, is the article's heading.
 */
const restoreTitleHeading = ($: cheerio.CheerioAPI, html: string, blocks: Block[], firstKept: number): void => {
  const h1 = $('h1').first().get(0) as unknown as SrcNode | undefined;
  const h1Loc = h1?.sourceCodeLocation;
  if (h1 && h1Loc && !blocks.some((b) => b.kind === 'heading' && b.level === 1) && h1Loc.startOffset < firstKept) {
    const text = clean($(h1 as never).text());
    if (text)
      blocks.unshift({
        kind: 'heading',
        level: 1,
        text,
        raw: html.slice(h1Loc.startOffset, h1Loc.endOffset),
        items: [],
        src: { at: h1Loc.startOffset, depth: 0 },
      });
  }
};

export const extractHtml = (page: string, url: string | null): HtmlParse => {
  const html = boundDepth(page);
  const $ = cheerio.load(html, { sourceCodeLocationInfo: true } as cheerio.CheerioOptions);
  const { marked, src } = markSource(html, $);
  const srcOf = sourceNodeOf(src);
  const { article, root, textLoc, usedBody } = mainContent(marked, src);
  const locOf = sourceSpanOf(srcOf, textLoc);

  let firstKept = Infinity;
  const blocks = collectBlocks(
    root,
    (el) => srcOf(el)?.name,
    (el) => {
      const l = locOf(el);
      if (!l) return { raw: '', at: -1 };
      firstKept = Math.min(firstKept, l.startOffset);
      const slice = html.slice(l.startOffset, l.endOffset);
      return { raw: slice.trim(), at: l.startOffset + (slice.length - slice.trimStart().length) };
    },
  );
  restoreTitleHeading($, html, blocks, firstKept);

  const signals = pageSignals({ $, html, url, blocks, root, srcOf, byline: article?.byline });
  return { blocks, signals, articleTitle: usedBody ? null : clean(article?.title ?? ''), bounded: html !== page };
};
