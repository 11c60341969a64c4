import type { Block, Change, ContentFormat, Doc, PageSignals, Section, Sentence } from './types.ts';
import { extractHtml, type HtmlParse } from './html/extract.ts';
import { reextractHtml } from './html/reextract.ts';
import { parseMarkdown } from './text/markdown.ts';
import { splitSentences, tokenize } from './text/segment.ts';
import { createStemmer } from './text/stem.ts';
import { stopwordsFor } from './text/stopwords.ts';

/**
 * Content → Doc: blocks, sections (split at every subheading), sentences with words and stems.
 * An Analyzer memoises sentence analysis by block text, so re-scoring a changed document (for the
 * recommendations' deltas) re-analyses only the blocks that changed.
 */

export interface Analyzer {
  lang: string;
  stem: (w: string) => string;
  stop: Set<string>;
  /** Stems of a phrase without stop words. */
  contentStems: (text: string) => string[];
  analyse: (text: string, kind: Sentence['kind']) => Omit<Sentence, 'section' | 'block' | 'first'>[];
}

export const createAnalyzer = (lang: string): Analyzer => {
  const stem = createStemmer(lang);
  const stop = stopwordsFor(lang);
  const cache = new Map<string, Omit<Sentence, 'section' | 'block' | 'first'>[]>();
  const one = (text: string, kind: Sentence['kind']): Omit<Sentence, 'section' | 'block' | 'first'> => {
    const words = tokenize(text);
    const stems = words.map(stem);
    const content: string[] = [];
    for (let i = 0; i < words.length; i++)
      if (!stop.has(words[i] ?? '') && (words[i] ?? '').length > 1) content.push(stems[i] ?? '');
    return { text, kind, words, stems, content };
  };
  return {
    lang,
    stem,
    stop,
    contentStems: (text) => one(text, 'prose').content,
    analyse: (text, kind) => {
      const key = `${kind}\u0000${text}`;
      let r = cache.get(key);
      if (!r) {
        const parts = kind === 'prose' || kind === 'list' ? splitSentences(text) : [text];
        r = parts.map((p) => one(p, kind)).filter((s) => s.words.length > 0);
        cache.set(key, r);
      }
      return r;
    },
  };
};

export const detectFormat = (content: string, forced?: ContentFormat): ContentFormat => {
  if (forced) return forced;
  const head = content.slice(0, 2000).toLowerCase();
  if (
    /<(html|body|article|main|!doctype)[\s>]/.test(head) ||
    (content.match(/<(p|h[1-6]|div)[\s>]/gi) ?? []).length >= 3
  )
    return 'html';
  return 'markdown';
};

const emptySignals = (): PageSignals => ({
  isHtml: false,
  htmlBytes: 0,
  mainTextChars: 0,
  bodyTextChars: 0,
  titleTag: '',
  metaDescription: '',
  canonical: '',
  langAttr: '',
  h1Count: 0,
  jsonLd: [],
  jsonLdInvalid: 0,
  jsonLdTypes: [],
  author: '',
  datePublished: '',
  dateModified: '',
  links: [],
  images: [],
  inlineScriptBytes: 0,
  actions: [],
  sameAs: 0,
});

export interface ParsedContent {
  format: ContentFormat;
  blocks: Block[];
  signals: PageSignals;
  text: string;
  /** HTML: the extraction, for re-scoring changes without re-extracting (reparseChange). */
  html?: HtmlParse;
}

const mainTextOf = (blocks: Block[]): string =>
  blocks
    .filter((b) => b.kind !== 'code')
    .map((b) => b.text)
    .join('\n');

/** The language-independent half: blocks and page signals. */
export const parseContent = (content: string, format: ContentFormat, url: string | null): ParsedContent => {
  if (format === 'html') {
    const html = extractHtml(content, url);
    return { format, blocks: html.blocks, signals: html.signals, text: mainTextOf(html.blocks), html };
  }
  const md = parseMarkdown(content);
  const signals = emptySignals();
  signals.links = md.links;
  signals.images = md.images;
  signals.h1Count = md.blocks.filter((b) => b.kind === 'heading' && b.level === 1).length;
  const text = md.blocks
    .filter((b) => b.kind !== 'code')
    .map((b) => b.text)
    .join('\n');
  signals.mainTextChars = text.length;
  signals.bodyTextChars = text.length;
  return { format, blocks: md.blocks, signals, text };
};

/**
 * The parse of `changed` (= applyChange(content, format, change)) from the parse of `content`
 * when the change can be applied to the extracted blocks directly (HTML: reextractHtml); null when
 * the changed content must be parsed whole. Markdown parsing is cheap and always re-runs.
 */
export const reparseChange = (
  prev: ParsedContent,
  content: string,
  changed: string,
  change: Change,
): ParsedContent | null => {
  // A bounded page's blocks point into its cut copy, not into `content`: read it whole again.
  if (prev.format !== 'html' || !prev.html || prev.html.bounded) return null;
  const html = reextractHtml(prev.html, content, changed, change);
  return html
    ? { format: 'html', blocks: html.blocks, signals: html.signals, text: mainTextOf(html.blocks), html }
    : null;
};

/** The language-dependent half: sections and sentences. */
export const buildDoc = (
  parsed: ParsedContent,
  content: string,
  an: Analyzer,
  url: string | null,
  suppliedTitle: string | null,
): Doc => {
  const { blocks } = parsed;
  const h1Block = blocks.find((b) => b.kind === 'heading' && b.level === 1);
  const sections: Section[] = [{ index: 0, heading: null, level: 1, blocks: [], words: 0 }];
  for (const b of blocks) {
    if (b === h1Block) continue;
    if (b.kind === 'heading')
      sections.push({ index: sections.length, heading: b, level: b.level, blocks: [], words: 0 });
    else sections[sections.length - 1]?.blocks.push(b);
  }
  const sentences: Sentence[] = [];
  const bySection: Sentence[][] = [];
  let words = 0;
  for (const sec of sections) {
    const list: Sentence[] = [];
    sec.blocks.forEach((b, bi) => {
      const parts: Omit<Sentence, 'section' | 'block' | 'first'>[] = [];
      // A table of contents repeats the headings: read once, as headings, not again as its list.
      if (b.navigation) return;
      if (b.kind === 'paragraph' || b.kind === 'quote') parts.push(...an.analyse(b.text, 'prose'));
      else if (b.kind === 'list') for (const it of b.items) parts.push(...an.analyse(it, 'list'));
      else if (b.kind === 'table') for (const row of b.text.split('\n')) parts.push(...an.analyse(row, 'table'));
      parts.forEach((p, k) => list.push({ ...p, section: sec.index, block: bi, first: k === 0 }));
    });
    sec.words = list.reduce((n, s) => n + s.words.length, 0);
    words += sec.words;
    bySection.push(list);
    sentences.push(...list);
  }
  const title = (suppliedTitle ?? '').trim() || parsed.signals.titleTag || h1Block?.text || '';
  return {
    format: parsed.format,
    content,
    language: an.lang,
    url,
    title,
    h1: h1Block?.text ?? '',
    blocks,
    sections,
    sentences,
    bySection,
    words,
    text: parsed.text,
    signals: parsed.signals,
  };
};
