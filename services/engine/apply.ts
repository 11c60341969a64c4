import type { Change, ContentFormat } from './types.ts';

/**
 * Applies one change to the content, exactly as a writer (or the apply service) would: replace the
 * verbatim BEFORE with AFTER, or insert AFTER next to its verbatim anchor. Additions are written in
 * Markdown; into HTML content they go as the equivalent HTML. The engine measures each
 * recommendation's estimatedCqsDelta by re-scoring the result of this function.
 */

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Minimal Markdown → HTML for the snippets the engine itself writes (headings, paragraphs, lists, tables). */
export const snippetToHtml = (md: string): string => {
  if (md.trimStart().startsWith('<')) return md;
  const out: string[] = [];
  for (const block of md.split(/\n{2,}/)) {
    const lines = block.split('\n');
    const h = /^(#{1,6})\s+(.*)$/.exec(block);
    if (h && lines.length === 1) out.push(`<h${h[1]!.length}>${esc(h[2] ?? '')}</h${h[1]!.length}>`);
    else if (lines.every((l) => l.trim().startsWith('|'))) {
      const rows = lines
        .filter((l) => !/^\s*\|?\s*-{3}/.test(l))
        .map((l) =>
          l
            .split('|')
            .map((c) => c.trim())
            .filter(Boolean),
        );
      out.push(
        `<table>${rows.map((r, i) => `<tr>${r.map((c) => (i === 0 ? `<th>${esc(c)}</th>` : `<td>${esc(c)}</td>`)).join('')}</tr>`).join('')}</table>`,
      );
    } else if (lines.every((l) => /^\s*[-*]\s+/.test(l)))
      out.push(`<ul>${lines.map((l) => `<li>${esc(l.replace(/^\s*[-*]\s+/, ''))}</li>`).join('')}</ul>`);
    else out.push(`<p>${esc(lines.join(' '))}</p>`);
  }
  return out.join('\n');
};

const END_TAGS = ['</article>', '</main>', '</body>'];

export const applyChange = (content: string, format: ContentFormat, change: Change): string => {
  if (change.kind === 'replace') {
    const i = content.indexOf(change.before);
    if (i < 0) throw new Error('BEFORE not found in the content');
    let start = i;
    let end = i + change.before.length;
    // A removed sentence takes one neighbouring space with it.
    if (change.after === '') {
      if (content[end] === ' ') end++;
      else if (content[start - 1] === ' ') start--;
    }
    return content.slice(0, start) + change.after + content.slice(end);
  }
  const snippet = format === 'html' ? snippetToHtml(change.after) : change.after;
  const sep = format === 'html' ? '\n' : '\n\n';
  if (change.placement === 'end') {
    if (format === 'html') {
      for (const tag of END_TAGS) {
        const at = content.toLowerCase().lastIndexOf(tag);
        if (at >= 0) return `${content.slice(0, at)}${snippet}\n${content.slice(at)}`;
      }
    }
    return `${content.replace(/\s+$/, '')}${sep}${snippet}\n`;
  }
  const i = content.indexOf(change.anchor);
  if (i < 0) throw new Error('anchor not found in the content');
  if (change.placement === 'before') return content.slice(0, i) + snippet + sep + content.slice(i);
  const at = i + change.anchor.length;
  return content.slice(0, at) + sep + snippet + content.slice(at);
};
