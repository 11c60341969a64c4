import { diffWords } from 'diff';
import sanitizeHtml from 'sanitize-html';
import { t } from '../engine/labels.ts';
import { isJsonLd, jsonLdText, markdownHtml, type MarkdownHtml } from './markdownHtml.ts';
import type { Rewrite } from './rewrite.ts';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Word marks inside a changed paragraph: private-use characters put around words in the Markdown
 * before marked renders it, turned into tags after, so the marks follow the rendered text (links,
 * emphasis) instead of its Markdown source. Any such character of the article itself is dropped.
 */
const MARK = {
  new: ['\uE000', '\uE001', '<ins class="new">', '</ins>'],
  changed: ['\uE002', '\uE003', '<mark class="changed">', '</mark>'],
  old: ['\uE004', '\uE005', '<del class="old">', '</del>'],
} as const;
const SENTINELS = /[\uE000-\uE005]/g;

const marked = (text: string, kind: keyof typeof MARK): string =>
  text.trim() === '' ? text : `${MARK[kind][0]}${text}${MARK[kind][1]}`;

/** Characters of inline Markdown: a mark put between them would break a link or an emphasis. */
const INLINE_MARKUP = /[*_`[\]()<>!]/;

/**
 * The new text of a change inside a paragraph with its new words green, replaced words yellow and
 * cut words struck out; when the changed words carry inline Markdown (a link, an emphasis), the
 * whole old text struck out and the whole new text yellow, so the marks never split the markup.
 */
const markWords = (before: string, after: string): string => {
  const parts = diffWords(before, after);
  if (parts.some((p) => (p.added || p.removed) && INLINE_MARKUP.test(p.value)))
    return `${marked(before, 'old')} ${marked(after, 'changed')}`;
  return parts
    .map((p, i, all) => {
      if (p.added) return marked(p.value, all[i - 1]?.removed ? 'changed' : 'new');
      if (p.removed) return marked(p.value, 'old');
      return p.value;
    })
    .join('');
};

const tagsFor = (html: string): string =>
  Object.values(MARK).reduce((h, [open, close, tag, end]) => h.split(open).join(tag).split(close).join(end), html);

type Piece = { html: string; added: boolean };

// JSON-LD as group 1; else, from a `<script` that is none, what every later start fails on as well:
// up to its `>`, or the rest of the text once a JSON-LD opening has no `</script>` after it. Skipped
// whole, so a flood of `<script` costs one reading (tried from each, 25,000 took 18 s).
const JSON_LD =
  /(<script[^>]*type=["']?application\/ld\+json[^>]*>[\s\S]*?<\/script>)|<script[^>]*type=["']?application\/ld\+json[^>]*>[\s\S]*|<script[^>]*/gi;
/** The text without its JSON-LD scripts, each given to `take`. */
const takeJsonLd = (text: string, take: (script: string) => void): string =>
  text.replace(JSON_LD, (m, script?: string) => {
    if (script === undefined) return m;
    take(script);
    return '';
  });
const isBlocks = (s: string): boolean => /\n\s*\n/.test(s.trim()) || /^\s*\n\n|\n\n\s*$/.test(s);
/** Markdown blocks inside an HTML block (CommonMark: blank lines around them), so they render as Markdown. */
const wrap = (cls: 'new' | 'changed' | 'old', md: string): string =>
  `\n\n<div class="${cls}">\n\n${md.trim()}\n\n</div>\n\n`;

/**
 * The revised article with its changes marked, as Markdown: each change of the rewrite placed on
 * the original text. A change of whole blocks (a paragraph moved to the top, a table of contents, a
 * paragraph split) is wrapped in a div (green new, yellow changed, struck out when cut); a change
 * inside a paragraph marks its words (green new, yellow replaced, struck out when cut). JSON-LD is
 * taken out as page code.
 */
const redline = (original: string, r: Rewrite): { markdown: string; code: Piece[] } => {
  const code: Piece[] = [];
  const text = original.replace(SENTINELS, '');
  const out: string[] = [];
  let at = 0;
  for (const c of r.changes) {
    out.push(text.slice(at, c.start));
    const old = text.slice(c.start, c.end);
    const added = takeJsonLd(c.text.replace(SENTINELS, ''), (m) =>
      code.push({ html: esc(jsonLdText(m)), added: true }),
    );
    if (added.trim() === '' && old.trim() !== '') out.push(isBlocks(old) ? wrap('old', old) : marked(old, 'old'));
    else if (old.trim() === '') out.push(isBlocks(added) ? wrap('new', added) : marked(added, 'new'));
    else if (isBlocks(added) || isBlocks(old)) out.push(wrap('changed', added));
    else out.push(markWords(old, added));
    at = c.end;
  }
  out.push(text.slice(at));
  const markdown = takeJsonLd(out.join(''), (m) => code.push({ html: esc(jsonLdText(m)), added: false }));
  return { markdown, code };
};

/** A card's BEFORE or AFTER as a reader sees it; JSON-LD as code. */
const cardText = (md: MarkdownHtml, text: string): string => {
  if (text.trim() === '') return '<p>—</p>';
  const blocks = md.blocks(text);
  if (blocks.length > 0 && blocks.every(isJsonLd))
    return blocks.map((b) => `<pre><code>${esc(jsonLdText(b.raw))}</code></pre>`).join('');
  return md.snippet(text);
};

const SANITISE: sanitizeHtml.IOptions = {
  allowedTags: [
    'header',
    'article',
    'section',
    'div',
    'span',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'a',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'b',
    'i',
    'small',
    'code',
    'pre',
    'blockquote',
    'hr',
    'br',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'ins',
    'del',
    'mark',
  ],
  allowedAttributes: {
    '*': ['class'],
    h1: ['id'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
    a: ['href'],
    ol: ['start'],
  },
  allowedClasses: {
    '*': ['new', 'changed', 'old', 'card', 'before', 'after', 'doc', 'legend', 'page-code', 'image', 'meta', 'rec-id'],
  },
  // Links keep web and mail addresses and in-page anchors; javascript: and data: are dropped.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Images load nothing under the CSP anyway: the reader sees where one stands and its alt text.
  transformTags: {
    img: (_tag, attribs) => ({ tagName: 'span', attribs: { class: 'image' }, text: `[${attribs.alt || 'image'}]` }),
  },
};

/**
 * The preview (spec 2.6 previewHtml): a complete HTML document of the revised article as a reader
 * sees it (Markdown rendered by marked), with what changed marked: new content green, changed
 * content yellow (the replaced words, in a changed paragraph), cut text struck out; JSON-LD apart
 * as page code; then a BEFORE/AFTER card per applied item.
 *
 * The article's own text may hold raw HTML. The body is sanitised with sanitize-html (only the tags
 * and classes written here, no attribute that runs script, links only to web, mail or in-page
 * addresses, no images), and the document carries a Content-Security-Policy that allows no
 * script. It is still meant for a sandboxed iframe (`<iframe sandbox srcdoc>`), as the spec says;
 * the two guards are for clients that forget.
 */
export const renderPreview = (original: string, r: Rewrite, lang: string): string => {
  const md = markdownHtml();
  const { markdown, code } = redline(original, r);
  const body = tagsFor(md.blocks(markdown).map(md.render).join(''));
  const cards = r.applied.map(
    (a) => `<section class="card"><h3>${esc(a.label)} <small class="rec-id">${esc(a.id)}</small></h3>
<div class="before"><b>${t(lang, 'BEFORE', 'PRZED', 'VORHER')}</b>${cardText(md, a.before)}</div>
<div class="after"><b>${t(lang, 'AFTER', 'PO', 'NACHHER')}</b>${cardText(md, a.after)}</div></section>`,
  );
  const meta = [
    r.title !== null
      ? `<p><b>${t(lang, 'Title', 'Tytuł', 'Titel')}:</b> <ins class="new">${esc(r.title)}</ins></p>`
      : '',
    r.description !== null
      ? `<p><b>${t(lang, 'Meta description', 'Opis meta', 'Meta-Beschreibung')}:</b> <ins class="new">${esc(r.description)}</ins></p>`
      : '',
  ].join('');
  const pageCode = code.length
    ? `<section class="page-code"><h2>${t(lang, 'Page code (head)', 'Kod strony (head)', 'Seitencode (head)')}</h2>
<p>${t(lang, 'Structured data (JSON-LD) goes into the page code, not into the text.', 'Dane strukturalne (JSON-LD) trafiają do kodu strony, nie do tekstu.', 'Strukturierte Daten (JSON-LD) gehören in den Seitencode, nicht in den Text.')}</p>
${code.map((c) => `<pre${c.added ? ' class="new"' : ''}><code>${c.html}</code></pre>`).join('\n')}</section>`
    : '';
  const inner = `<header><h1>${t(lang, 'Preview of the changes', 'Podgląd zmian', 'Vorschau der Änderungen')}</h1>
<p class="legend"><ins class="new">${t(lang, 'new', 'nowe', 'neu')}</ins> <mark class="changed">${t(lang, 'changed', 'zmienione', 'geändert')}</mark> <del class="old">${t(lang, 'removed', 'usunięte', 'entfernt')}</del></p>
<div class="meta">${meta}</div></header>
<article class="doc">${body}</article>
${pageCode}
<h2>${t(lang, 'Changes', 'Zmiany', 'Änderungen')}</h2>${cards.join('\n')}`;
  const clean = sanitizeHtml(inner, SANITISE);
  return `<!doctype html>
<html lang="${lang === 'pl' ? 'pl' : lang === 'de' ? 'de' : 'en'}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t(lang, 'Preview of the changes', 'Podgląd zmian', 'Vorschau der Änderungen')}</title>
<style>
body{font:16px/1.6 Georgia,'Times New Roman',serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
header,h2,.card,.legend,.page-code{font-family:system-ui,sans-serif}
header h1{font-size:1.1rem;color:#555;margin:0 0 .25rem}
.doc{border:1px solid #ddd;border-radius:8px;padding:.5rem 1.5rem 1rem;background:#fff}
.doc h1{font-size:1.9rem;line-height:1.2}
div.new{background:#c8f7c5;border-left:4px solid #2e9b3a;padding:.1rem .75rem;margin:.5rem -.75rem;border-radius:4px}
div.changed{background:#fff6c4;border-left:4px solid #d9b400;padding:.1rem .75rem;margin:.5rem -.75rem;border-radius:4px}
div.old{color:#8a8a8a;text-decoration:line-through;padding:0 .75rem;margin:0 -.75rem}
ins.new{background:#c8f7c5;text-decoration:none;border-radius:3px}
mark.changed{background:#ffe98a;border-radius:3px}
del.old{color:#8a8a8a;text-decoration:line-through}
.image{display:inline-block;border:1px dashed #bbb;border-radius:4px;padding:.25rem .5rem;color:#666;font:14px system-ui,sans-serif}
pre{background:#f5f5f7;border-radius:6px;padding:.75rem;overflow:auto;font-size:13px}
pre.new{background:#c8f7c5}
.card{border:1px solid #ddd;border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
.card .before,.card .after{padding:.25rem .75rem;margin:.5rem 0;border-radius:6px}
.card .before{background:#fdecec}.card .after{background:#e9f9e7}
small{color:#777;font-weight:normal}
</style></head>
<body>
${clean}
</body></html>
`;
};
