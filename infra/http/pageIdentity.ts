/**
 * When two URLs name the same page (spec 4.4 rule 2: duplicates in a batch are removed). The
 * WHATWG parser already lower-cases scheme and host, drops a default port and resolves dot
 * segments; on top of that the comparison ignores what never reaches the server or cannot change
 * the answer (RFC 3986 6.2.2): the fragment, an empty query (`/a?`), escapes of unreserved
 * characters (`%64` is `d`) and the case of the remaining escapes (`%2f` is `%2F`).
 */

const ESCAPE = /%[0-9A-Fa-f]{2}/g;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Escapes of unreserved characters decoded, every other escape in upper case. */
const normaliseEscapes = (s: string): string =>
  s.replace(ESCAPE, (e) => {
    const c = String.fromCharCode(parseInt(e.slice(1), 16));
    return UNRESERVED.test(c) ? c : e.toUpperCase();
  });

/** The comparison key of a parsed URL: equal keys, same page. */
export function samePageKey(url: URL): string {
  const query = url.search === '' ? '' : normaliseEscapes(url.search);
  return `${url.protocol}//${url.host}${normaliseEscapes(url.pathname)}${query}`;
}
