/**
 * The one rule for text entering the store. PostgreSQL refuses U+0000 in `text` and `jsonb` (a
 * `\u0000` escape included), and a lone UTF-16 surrogate in `jsonb`. Text reaches the store from
 * clients, crawled pages and SERP providers alike, so every payload, content blob and JSON document
 * written passes through here: each such character becomes U+FFFD, the Unicode replacement
 * character. Lengths stay as counted, and "a\0b" stays distinct from "ab". Request parsers apply it
 * to what a client sends, so what the API answers is what is stored; the store's own pass then
 * changes nothing there and still covers every other source.
 */
const UNSTORABLE = '\\u0000|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const ANY = new RegExp(UNSTORABLE);
const ALL = new RegExp(UNSTORABLE, 'g');

export const storableText = (s: string): string => (ANY.test(s) ? s.replace(ALL, '\uFFFD') : s);

/** JSON text that `jsonb` accepts: JSON.stringify with every string (keys too) made storable. */
export const storableJson = (value: unknown): string =>
  JSON.stringify(value, function (this: unknown, _key: string, v: unknown) {
    if (typeof v === 'string') return storableText(v);
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => storableText(k) !== k)) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [storableText(k), x]));
    }
    return v;
  });
