import type { Block } from '../types.ts';
import { isInPageHref } from '../../../core/host.ts';
import { all, altOf, textOf, type DomNode } from './dom.ts';

const HEADING = /^h[1-6]$/;

/** Every word of the list stands in a link to a place on this page (a table of contents). */
const isNavigation = (list: DomNode, items: readonly string[]): boolean => {
  if (items.length < 2) return false;
  const linked = all(list, 'a[href]')
    .filter((a) => isInPageHref(a.getAttribute('href') ?? ''))
    .map(textOf)
    .join('');
  return linked !== '' && linked.replace(/\s+/g, '') === textOf(list).replace(/\s+/g, '');
};

/**
 * The main content's blocks, in document order. `srcTagOf` gives an element's tag in the source
 * (Readability renames H1 to H2), `rawOf` its verbatim source slice and offset.
 */
export const collectBlocks = (
  root: DomNode,
  srcTagOf: (el: DomNode) => string | undefined,
  rawOf: (el: DomNode) => { raw: string; at: number },
): Block[] => {
  const blocks: Block[] = [];
  const push = (el: DomNode, depth: number, b: Omit<Block, 'raw' | 'src'>) => {
    const { raw, at } = rawOf(el);
    blocks.push({ ...b, raw, src: { at, depth } });
  };
  const walk = (parent: DomNode, depth: number) => {
    // linkedom builds `children` afresh at each read: read once, or a page of n siblings costs n².
    const children = parent.children;
    for (let k = 0; k < children.length; k++) {
      const el = children[k]!;
      const tag = el.localName ?? '';
      // A heading keeps its source level (Readability renames H1 to H2 in its output).
      const srcTag = srcTagOf(el) ?? tag;
      if (HEADING.test(srcTag) || HEADING.test(tag)) {
        const text = textOf(el);
        if (text)
          push(el, depth, {
            kind: 'heading',
            level: Number((HEADING.test(srcTag) ? srcTag : tag).slice(1)),
            text,
            items: [],
          });
      } else if (tag === 'p') {
        const text = textOf(el);
        if (text) push(el, depth, { kind: 'paragraph', level: 0, text, items: [] });
        else if (all(el, 'img').length) push(el, depth, { kind: 'image', level: 0, text: '', items: [altOf(el)] });
      } else if (tag === 'ul' || tag === 'ol') {
        const items = Array.from(el.children)
          .filter((c) => c.localName === 'li')
          .map(textOf)
          .filter(Boolean);
        const navigation = isNavigation(el, items);
        if (items.length)
          push(el, depth, { kind: 'list', level: 0, text: items.join('\n'), items, ...(navigation && { navigation }) });
      } else if (tag === 'table' || tag === 'dl') {
        const items = all(el, tag === 'table' ? 'th,td' : 'dt,dd')
          .map(textOf)
          .filter(Boolean);
        const rows =
          tag === 'table'
            ? all(el, 'tr').map((tr) =>
                Array.from(tr.children)
                  .filter((c) => c.localName === 'th' || c.localName === 'td')
                  .map(textOf)
                  .join(' | '),
              )
            : items;
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
