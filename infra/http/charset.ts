/**
 * Bytes of an HTML page to text, in the order browsers decide the encoding: a byte-order mark,
 * then the Content-Type charset, then a <meta charset> / http-equiv in the first 1024 bytes, then
 * UTF-8. Node's TextDecoder (full ICU) knows the WHATWG encodings, windows-1250 and iso-8859-2
 * for Polish pages among them; an unknown label falls back to UTF-8 rather than failing the page.
 */

import { TextDecoder } from 'node:util';

export interface DecodedHtml {
  text: string;
  /** The WHATWG name of the encoding used. */
  charset: string;
}

const labelFromContentType = (contentType: string | undefined): string | undefined =>
  contentType?.match(/;\s*charset\s*=\s*"?([^";\s]+)"?/i)?.[1];

const labelFromMeta = (head: string): string | undefined =>
  head.match(/<meta[^>]+charset\s*=\s*["']?\s*([^"'\s/>;]+)/i)?.[1];

const bomEncoding = (b: Uint8Array): string | undefined => {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  return undefined;
};

const decoderFor = (label: string | undefined): TextDecoder | undefined => {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return undefined;
  }
};

export function decodeHtml(bytes: Uint8Array, contentType: string | undefined): DecodedHtml {
  let decoder = decoderFor(bomEncoding(bytes)) ?? decoderFor(labelFromContentType(contentType));
  if (!decoder) {
    // Meta tags are ASCII in every encoding a page may declare that way.
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
    decoder = decoderFor(labelFromMeta(head));
    // A meta tag read as ASCII cannot truly declare UTF-16; HTML says to take UTF-8 then.
    if (decoder?.encoding.startsWith('utf-16')) decoder = undefined;
  }
  decoder ??= new TextDecoder('utf-8');
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}
