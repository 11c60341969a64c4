import type * as cheerio from 'cheerio';

/** The page's JSON-LD: every block parsed, @graph flattened; types, first author, dates, sameAs. */
export interface JsonLdSignals {
  items: unknown[];
  invalid: number;
  types: string[];
  author: string;
  published: string;
  modified: string;
  sameAs: number;
}

export const readJsonLd = ($: cheerio.CheerioAPI): JsonLdSignals => {
  const items: unknown[] = [];
  let invalid = 0;
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      const parsed: unknown = JSON.parse($(el).text());
      const list = Array.isArray(parsed) ? parsed : [parsed];
      for (const item of list) {
        const graph = (item as { '@graph'?: unknown[] })['@graph'];
        if (Array.isArray(graph)) items.push(...graph);
        else items.push(item);
      }
    } catch {
      invalid++;
    }
  });
  const types: string[] = [];
  let author = '';
  let published = '';
  let modified = '';
  let sameAs = 0;
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const t = o['@type'];
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === 'string') types.push(x);
    const a = o.author;
    const first = Array.isArray(a) ? a[0] : a;
    if (!author && first && typeof first === 'object' && typeof (first as { name?: unknown }).name === 'string')
      author = (first as { name: string }).name;
    if (!author && typeof first === 'string') author = first;
    if (!published && typeof o.datePublished === 'string') published = o.datePublished;
    if (!modified && typeof o.dateModified === 'string') modified = o.dateModified;
    const sa = o.sameAs ?? (first && typeof first === 'object' ? (first as { sameAs?: unknown }).sameAs : undefined);
    if (Array.isArray(sa)) sameAs += sa.length;
    else if (typeof sa === 'string') sameAs++;
  }
  return { items, invalid, types, author, published, modified, sameAs };
};
