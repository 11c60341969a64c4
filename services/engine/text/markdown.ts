import type { Block, LinkInfo } from '../types.ts';
import { markdownLinks } from './linkScan.ts';

/**
 * Supplied text or Markdown → blocks. Plain text is Markdown without markup, so one parser serves
 * both: ATX headings (#), lists, tables, fenced code, quotes, images and paragraphs. Each block keeps
 * its verbatim source slice (raw), which recommendations use as BEFORE or as an insert anchor.
 */

// Images, links and tags as group 1, else a stretch from which every start fails as this one did
// (the rest of the text when no `)` or `>` is left): skipped whole, so a flood of `[` or `<` costs
// one reading, not one per start (text/linkScan.ts says why). The matches are the plain patterns'.
const IMAGE = /(!\[[^\]]*\]\([^)]*\))|!\[[^\]]*(?:\]\([^)]*)?/g;
const LINKED = /(\[([^\]]*)\]\([^)]*\))|\[[^\]]*(?:\]\([^)]*)?/g;
const TAG = /(<[^>]+>)|<[^>]*$/g;

export const stripInline = (s: string): string =>
  s
    .replace(IMAGE, (m, image?: string) => (image === undefined ? m : ''))
    .replace(LINKED, (m, link?: string, text?: string) => (link === undefined ? m : (text ?? '')))
    .replace(TAG, (m, tag?: string) => (tag === undefined ? m : ''))
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*])\*(?!\s)([^*]+?)\*(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/;

// A link to a place on this page, as a list item of a table of contents writes it.
const IN_PAGE_LINK = /\[[^\][]*\]\(\s*#[^)\s]*\s*\)/g;

/** Every line of a list, nested items too, is nothing but in-page links (a table of contents): navigation, not prose. */
const isNavigation = (lines: readonly string[]): boolean => {
  const filled = lines.filter((l) => l.trim() !== '');
  return (
    filled.length >= 2 &&
    filled.every((l) => {
      const rest = l.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, '');
      return rest.search(IN_PAGE_LINK) >= 0 && rest.replace(IN_PAGE_LINK, '').trim() === '';
    })
  );
};

/**
 * An ATX heading: what /^(#{1,6})\s+(.*?)\s*#*\s*$/ captures (its hashes and its text), or null.
 * Read from both ends instead: the expression tried its tail at every position of a run of spaces,
 * and one heading line of 50,000 spaces ran for minutes. Its text ends where the closing spaces,
 * hashes and spaces begin, and `.` crosses no line terminator.
 */
export const atxHeading = (line: string): [hashes: string, text: string] | null => {
  let n = 0;
  while (n < 7 && line[n] === '#') n++;
  if (n === 0 || n > 6 || !/\s/.test(line[n] ?? '')) return null;
  const from = line.length - line.slice(n).trimStart().length;
  let to = line.trimEnd().length;
  while (to > 0 && line[to - 1] === '#') to--;
  to = line.slice(0, to).trimEnd().length;
  const text = line.slice(from, Math.max(from, to));
  return /[\r\u2028\u2029]/.test(text) ? null : [line.slice(0, n), text];
};

export interface MarkdownParse {
  blocks: Block[];
  links: LinkInfo[];
  images: { src: string; alt: string }[];
}

export const parseMarkdown = (content: string): MarkdownParse => {
  const lines = content.split('\n');
  const starts: number[] = [];
  let off = 0;
  for (const l of lines) {
    starts.push(off);
    off += l.length + 1;
  }
  const rawOf = (from: number, to: number): string =>
    content.slice(starts[from] ?? 0, (starts[to] ?? content.length + 1) + (lines[to]?.length ?? 0)).replace(/\r$/, '');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (!line.trim()) {
      i++;
      continue;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      let j = i + 1;
      while (j < lines.length && !/^\s*(```|~~~)/.test(lines[j] ?? '')) j++;
      const end = Math.min(j, lines.length - 1);
      blocks.push({ kind: 'code', level: 0, text: lines.slice(i + 1, j).join('\n'), raw: rawOf(i, end), items: [] });
      i = end + 1;
      continue;
    }
    const h = atxHeading(line);
    if (h) {
      blocks.push({
        kind: 'heading',
        level: h[0].length,
        text: stripInline(h[1]),
        raw: rawOf(i, i),
        items: [],
      });
      i++;
      continue;
    }
    // Group consecutive lines of one kind.
    const kindOf = (l: string): 'list' | 'table' | 'quote' | 'image' | 'paragraph' | 'stop' => {
      if (!l.trim() || atxHeading(l) || /^\s*(```|~~~)/.test(l)) return 'stop';
      if (LIST_ITEM.test(l)) return 'list';
      if (/^\s*\|/.test(l)) return 'table';
      if (/^\s*>/.test(l)) return 'quote';
      if (/^\s*!\[[^\]]*\]\([^)]*\)\s*$/.test(l)) return 'image';
      return 'paragraph';
    };
    const kind = kindOf(line);
    let j = i;
    while (j + 1 < lines.length) {
      const next = (lines[j + 1] ?? '').replace(/\r$/, '');
      const k = kindOf(next);
      if (k === 'stop' || kind === 'image') break;
      if (k === kind || (kind === 'list' && k === 'paragraph' && /^\s{2,}/.test(next))) j++;
      else if (kind === 'paragraph' && k === 'paragraph') j++;
      else break;
    }
    const chunk = lines.slice(i, j + 1).map((l) => l.replace(/\r$/, ''));
    const raw = rawOf(i, j);
    if (kind === 'list') {
      const items: string[] = [];
      for (const l of chunk) {
        if (LIST_ITEM.test(l)) items.push(stripInline(l.replace(LIST_ITEM, '')));
        else if (items.length) items[items.length - 1] += ` ${stripInline(l)}`;
      }
      const navigation = isNavigation(chunk);
      // Its caption ("**Contents**" on a line of its own) belongs to the table of contents.
      const caption = blocks[blocks.length - 1];
      if (navigation && caption?.kind === 'paragraph' && /^\s*(\*\*|__)[^*_\n]{1,40}\1\s*$/.test(caption.raw))
        caption.navigation = true;
      blocks.push({ kind: 'list', level: 0, text: items.join('\n'), raw, items, ...(navigation && { navigation }) });
    } else if (kind === 'table') {
      const rows = chunk
        .filter((l) => !/^\s*\|?\s*:?-{2,}/.test(l))
        .map((l) =>
          l
            .split('|')
            .map((c) => stripInline(c))
            .filter(Boolean),
        );
      const items = rows.flat();
      blocks.push({ kind: 'table', level: 0, text: rows.map((r) => r.join(' | ')).join('\n'), raw, items });
    } else if (kind === 'quote') {
      blocks.push({
        kind: 'quote',
        level: 0,
        text: stripInline(chunk.map((l) => l.replace(/^\s*>\s?/, '')).join(' ')),
        raw,
        items: [],
      });
    } else if (kind === 'image') {
      const m = /!\[([^\]]*)\]/.exec(line);
      blocks.push({ kind: 'image', level: 0, text: '', raw, items: [m?.[1] ?? ''] });
    } else {
      blocks.push({ kind: 'paragraph', level: 0, text: stripInline(chunk.join(' ')), raw, items: [] });
    }
    i = j + 1;
  }
  const links: LinkInfo[] = [];
  const images: { src: string; alt: string }[] = [];
  for (const { all, text, href } of markdownLinks(content)) {
    if (all.startsWith('!')) images.push({ src: href, alt: text });
    else links.push({ href, text, rel: '', internal: href.startsWith('/') || href.startsWith('#') });
  }
  return { blocks, links, images };
};
