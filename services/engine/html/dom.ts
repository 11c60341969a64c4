/**
 * The DOM as the HTML extraction sees it: the members it uses on linkedom nodes (the project
 * compiles without the DOM lib), cheerio's source nodes with their locations, and text helpers.
 */

export const TEXT_NODE = 3;
export const ELEMENT_NODE = 1;

export interface Loc {
  startOffset: number;
  endOffset: number;
}
export interface SrcNode {
  type: string;
  name?: string;
  data?: string;
  children?: SrcNode[];
  sourceCodeLocation?: Loc | null;
}
export interface DomNode {
  nodeType: number;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  children: ArrayLike<DomNode>;
  getAttribute: (name: string) => string | null;
  querySelectorAll: (sel: string) => ArrayLike<DomNode>;
  outerHTML?: string;
}
export interface DomDocument {
  body: DomNode | null;
  querySelectorAll: (sel: string) => ArrayLike<DomNode>;
}

export const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();
export const textOf = (n: DomNode): string => clean(n.textContent ?? '');
export const all = (n: DomNode, sel: string): DomNode[] => Array.from(n.querySelectorAll(sel));
export const altOf = (n: DomNode): string => clean(all(n, 'img')[0]?.getAttribute('alt') ?? '');
