/**
 * Browser-like request headers for HTTP/1.1. got-scraping would generate them itself, but for
 * https its header hook first opens a TLS connection of its own to learn the ALPN protocol, and
 * that probe resolves the host name with plain DNS, outside the guard. So the crawler turns the
 * hook off and asks the same generator (header-generator, got-scraping's own) directly.
 */
import { HeaderGenerator } from 'header-generator';

let generator: HeaderGenerator | undefined;

export function browserHeaders(): Record<string, string> {
  generator ??= new HeaderGenerator({
    browsers: ['chrome', 'firefox'],
    devices: ['desktop'],
    operatingSystems: ['windows', 'macos', 'linux'],
    locales: ['en-US', 'en'],
    httpVersion: '1',
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(generator.getHeaders())) {
    const lower = name.toLowerCase();
    // Each connection serves one request (see crawler.ts), so no keep-alive promise.
    if (lower === 'connection') continue;
    // We read HTML only; saying so keeps content-negotiating servers from answering otherwise.
    if (lower === 'accept') headers[name] = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
    // got-scraping decompresses gzip, deflate and br; zstd is not in Node 20's zlib.
    else if (lower === 'accept-encoding') headers[name] = 'gzip, deflate, br';
    else headers[name] = value;
  }
  return headers;
}
