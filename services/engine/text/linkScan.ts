/**
 * Links found in one pass, with exactly the matches of the regular expressions they replace.
 *
 * Why not the expressions: V8 backtracks, and /\[([^\]]*)\]\(…\)/g that fails at one `[` is tried
 * again at every later `[` before the same `]`, each attempt reading the same stretch again.
 * 50,000 `[` (or `[a](`, or `<a `) in a valid submission took half a minute, 200,000 minutes.
 * Here every "where is the next `]`" is asked with a start that only grows, so it is answered from
 * the last answer while that still lies ahead: each character is read a bounded number of times.
 */

/** The first index ≥ i where `re` (global) matches, or s.length; the last answer is kept. */
const nextOf = (s: string, re: RegExp): ((i: number) => number) => {
  let from = 1;
  let at = 0; // from > at: nothing kept yet
  return (i) => {
    if (from <= i && i <= at) return at;
    re.lastIndex = i;
    at = re.exec(s)?.index ?? s.length;
    from = i;
    return at;
  };
};

export interface MarkdownLink {
  /** The whole match, `[text](href)` or `![alt](src "title")`. */
  all: string;
  text: string;
  href: string;
}

/** Finders of one string, shared by the matchers below. */
const findersOf = (s: string) => ({
  close: nextOf(s, /\]/g),
  paren: nextOf(s, /\)/g),
  urlStop: nextOf(s, /[)\s]/g),
  nonSpace: nextOf(s, /\S/g),
  quote: nextOf(s, /"/g),
  gt: nextOf(s, />/g),
  lt: nextOf(s, /</g),
});
type Finders = ReturnType<typeof findersOf>;

/** /\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/ at `t` (just after the `[`): the end and groups, or null. */
const titledLinkAt = (s: string, f: Finders, t: number): { end: number; text: string; href: string } | null => {
  const q = f.close(t);
  if (q >= s.length || s[q + 1] !== '(') return null;
  const u = f.urlStop(q + 2);
  if (u === q + 2 || u >= s.length) return null;
  const found = { text: s.slice(t, q), href: s.slice(q + 2, u) };
  if (s[u] === ')') return { end: u + 1, ...found };
  const w = f.nonSpace(u);
  if (s[w] !== '"') return null;
  const c = f.quote(w + 1);
  return c < s.length && s[c + 1] === ')' ? { end: c + 2, ...found } : null;
};

/** The matches of /!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, in order. */
export const markdownLinks = (s: string): MarkdownLink[] => {
  const f = findersOf(s);
  const start = nextOf(s, /[![]/g);
  const out: MarkdownLink[] = [];
  for (let p = start(0); p < s.length;) {
    const t = s[p] === '[' ? p + 1 : s[p + 1] === '[' ? p + 2 : -1;
    const m = t < 0 ? null : titledLinkAt(s, f, t);
    if (m) out.push({ all: s.slice(p, m.end), text: m.text, href: m.href });
    p = start(m ? m.end : p + 1);
  }
  return out;
};

const A_OPEN = /<a\b/iuy;
const A_CLOSE = /<\/a>/iuy;
const stickyAt = (re: RegExp, s: string, i: number): boolean => {
  re.lastIndex = i;
  return re.test(s);
};

/** /\[([^\]]*)\]\([^)]*\)|<a\b[^>]*>([^<]*)<\/a>/iu at `p`: the end and the linked text, or null. */
const linkedAt = (s: string, f: Finders, p: number): { end: number; text: string } | null => {
  if (s[p] === '[') {
    const q = f.close(p + 1);
    const r = s[q + 1] === '(' ? f.paren(q + 2) : s.length;
    return r < s.length ? { end: r + 1, text: s.slice(p + 1, q) } : null;
  }
  if (!stickyAt(A_OPEN, s, p)) return null;
  const g = f.gt(p + 2);
  const h = g < s.length ? f.lt(g + 1) : s.length;
  return h < s.length && stickyAt(A_CLOSE, s, h) ? { end: h + 4, text: s.slice(g + 1, h) } : null;
};

/** The linked texts of the matches of /\[([^\]]*)\]\([^)]*\)|<a\b[^>]*>([^<]*)<\/a>/giu, in order. */
export const linkedTexts = (s: string): string[] => {
  const f = findersOf(s);
  const start = nextOf(s, /[[<]/g);
  const out: string[] = [];
  for (let p = start(0); p < s.length;) {
    const m = linkedAt(s, f, p);
    if (m) out.push(m.text);
    p = start(m ? m.end : p + 1);
  }
  return out;
};
