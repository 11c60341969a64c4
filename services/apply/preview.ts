import { diffWords } from 'diff';
import sanitizeHtml from 'sanitize-html';
import { t } from '../engine/labels.ts';
import type { Rewrite } from './rewrite.ts';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The preview (spec 2.6 previewHtml): a complete HTML document built from a word-level diff of the
 * Markdown before and after (jsdiff's diffWords). Words only in the new text are green (`ins.new`);
 * where words were replaced, the new words are yellow (`mark.changed`) after the struck-out old
 * ones; then one BEFORE/AFTER card per applied item.
 *
 * The article's own text may hold raw HTML (a fetched page, supplied Markdown with tags). The body
 * is sanitised with sanitize-html (only the few tags and classes written here survive, no
 * attributes that run script, no URLs), and the document carries a Content-Security-Policy that
 * allows no script at all. It is still meant for a sandboxed iframe (`<iframe sandbox srcdoc>`), as
 * the spec says; the two guards are for clients that forget.
 */
export const renderPreview = (original: string, r: Rewrite, lang: string): string => {
  const parts = diffWords(original, r.markdown);
  const body: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.removed) {
      const next = parts[i + 1];
      body.push(`<del class="old">${esc(p.value)}</del>`);
      if (next?.added) {
        body.push(`<mark class="changed">${esc(next.value)}</mark>`);
        i++;
      }
    } else if (p.added) body.push(`<ins class="new">${esc(p.value)}</ins>`);
    else body.push(esc(p.value));
  }
  const cards = r.applied.map(
    (a) => `<section class="card"><h3>${esc(a.label)} <small>${esc(a.id)}</small></h3>
<div class="before"><b>${t(lang, 'BEFORE', 'PRZED')}</b><p>${esc(a.before) || '—'}</p></div>
<div class="after"><b>${t(lang, 'AFTER', 'PO')}</b><p>${esc(a.after)}</p></div></section>`,
  );
  const meta = [
    r.title !== null ? `<p><b>${t(lang, 'Title', 'Tytuł')}:</b> <ins class="new">${esc(r.title)}</ins></p>` : '',
    r.description !== null
      ? `<p><b>${t(lang, 'Meta description', 'Opis meta')}:</b> <ins class="new">${esc(r.description)}</ins></p>`
      : '',
  ].join('');
  const inner = `<header><h1>${t(lang, 'Preview of the changes', 'Podgląd zmian')}</h1>
<p class="legend"><ins class="new">${t(lang, 'new', 'nowe')}</ins> <mark class="changed">${t(lang, 'changed', 'zmienione')}</mark> <del class="old">${t(lang, 'removed', 'usunięte')}</del></p>${meta}</header>
<article class="diff">${body.join('')}</article>
<h2>${t(lang, 'Changes', 'Zmiany')}</h2>${cards.join('\n')}`;
  const clean = sanitizeHtml(inner, {
    allowedTags: ['header', 'h1', 'h2', 'h3', 'p', 'b', 'small', 'ins', 'del', 'mark', 'article', 'section', 'div'],
    allowedAttributes: { '*': ['class'] },
    allowedClasses: { '*': ['new', 'changed', 'old', 'card', 'before', 'after', 'diff', 'legend'] },
    allowedSchemes: [],
  });
  return `<!doctype html>
<html lang="${lang === 'pl' ? 'pl' : 'en'}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t(lang, 'Preview of the changes', 'Podgląd zmian')}</title>
<style>
body{font:16px/1.55 system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
.diff{white-space:pre-wrap;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem;background:#fff}
ins.new{background:#c8f7c5;text-decoration:none;border-radius:3px}
mark.changed{background:#ffe98a;border-radius:3px}
del.old{color:#8a8a8a;text-decoration:line-through}
.card{border:1px solid #ddd;border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
.card .before p{background:#fdecec;padding:.5rem;white-space:pre-wrap}.card .after p{background:#e9f9e7;padding:.5rem;white-space:pre-wrap}
small{color:#777;font-weight:normal}
</style></head>
<body>
${clean}
</body></html>
`;
};
