/**
 * Fetches one HTML page through the SSRF guard with got-scraping. How the guard is wired in:
 * - got's `dnsLookup` is the guard's lookup, so each connection (the first and every redirect)
 *   resolves, checks every address and connects to a checked one, in one step;
 * - a beforeRedirect hook re-checks each Location as written (scheme, credentials, port, literal
 *   IPs, which never reach a lookup) with the policy of submission;
 * - HTTP/2 and got-scraping's header hook are off: both open connections of their own (ALPN probes
 *   through http2-wrapper) that resolve the host outside the guard;
 * - fresh agents without keep-alive per page, so no socket opened under another policy is reused.
 * Every failure is AppError('crawl_failed') with a message for the job's errorMessage and
 * `extra.reason` for code that wants to tell the cases apart.
 */
import http from 'node:http';
import https from 'node:https';
import { gotScraping, TransformHeadersAgent, type Request as GotRequest } from 'got-scraping';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../core/errors.ts';
import { browserHeaders } from './browserHeaders.ts';
import { decodeHtml } from './charset.ts';
import { crawlFailed, toCrawlError } from './crawlErrors.ts';
import type { UrlGuard } from './guard.ts';

export interface CrawlLimits {
  /** The whole fetch, redirects included. */
  timeoutMs: number;
  /** Decoded body bytes; reading stops beyond this. */
  maxBytes: number;
  maxRedirects: number;
}

export const DEFAULT_CRAWL_LIMITS: CrawlLimits = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };

export interface FetchPageOptions {
  guard: UrlGuard;
  limits?: Partial<CrawlLimits>;
  /**
   * Verify TLS certificates. Off by default, as in got-scraping: a content audit reads public
   * pages, and a site with a lapsed certificate is still worth auditing. The address rules do not
   * depend on it.
   */
  verifyTls?: boolean;
  /** Clock for fetchedAt (tests). */
  now?: () => Date;
}

export interface FetchedPage {
  /** The URL asked for, normalised. */
  url: string;
  /** The URL of the answer, after redirects. */
  finalUrl: string;
  /** Every URL redirected to, in order. */
  redirects: string[];
  status: number;
  /** The media type without parameters, e.g. text/html. */
  contentType: string;
  /** The encoding the body was decoded with. */
  charset: string;
  html: string;
  bytes: number;
  /** The address the final connection went to. */
  remoteAddress: string | undefined;
  fetchedAt: string;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

/** Without a Content-Type, accept what plainly starts like HTML (as browsers sniff). */
const looksLikeHtml = (bytes: Buffer): boolean =>
  /^\s*(<!doctype html|<html|<head|<body|<!--)/i.test(
    bytes
      .subarray(0, 512)
      .toString('latin1')
      .replace(/^\uFEFF|^\xEF\xBB\xBF/, ''),
  );

/** The request as a stream, every connection and every redirect through the guard (see the head). */
function openStream(url: URL, opts: FetchPageOptions, limits: CrawlLimits, redirects: string[]): GotRequest {
  const { guard } = opts;
  return gotScraping.stream({
    url,
    http2: false,
    useHeaderGenerator: false,
    headers: browserHeaders(),
    dnsLookup: guard.lookup as never,
    agent: {
      http: new TransformHeadersAgent(new http.Agent({ keepAlive: false })),
      https: new TransformHeadersAgent(new https.Agent({ keepAlive: false })),
    },
    followRedirect: true,
    maxRedirects: limits.maxRedirects,
    timeout: { request: limits.timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    decompress: true,
    https: { rejectUnauthorized: opts.verifyTls ?? false },
    hooks: {
      beforeRedirect: [
        (options, response) => {
          // Every hop meets the submission's URL policy as the server wrote it: by now got has
          // stripped (same host) or moved aside (other host) a Location's user name and password,
          // so options.url alone would let a Location with credentials through.
          guard.checkUrl(locationOf(response));
          redirects.push(guard.checkUrl(options.url as URL).href);
        },
      ],
    },
  });
}

/** Refuses an answer that is not a 2xx, not HTML, or declared too large; gives its media type. */
function acceptedType(response: IncomingMessage, limits: CrawlLimits): string {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    throw crawlFailed(
      'http_status',
      `the page answered HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`,
    );
  }
  const type = mediaType(response.headers['content-type']);
  if (type !== '' && !HTML_TYPES.has(type))
    throw crawlFailed('not_html', `the page is not HTML (Content-Type ${type})`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes && !response.headers['content-encoding']) {
    throw crawlFailed('too_large', `the page is larger than the ${formatBytes(limits.maxBytes)} limit`);
  }
  return type;
}

/** The decoded body, read up to the byte limit. */
async function readBody(stream: GotRequest, limits: CrawlLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limits.maxBytes)
      throw crawlFailed('too_large', `the page is larger than the ${formatBytes(limits.maxBytes)} limit`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function fetchPage(rawUrl: string, opts: FetchPageOptions): Promise<FetchedPage> {
  const limits = { ...DEFAULT_CRAWL_LIMITS, ...opts.limits };
  let url: URL;
  try {
    url = opts.guard.checkUrl(rawUrl);
  } catch (e) {
    throw toCrawlError(e, limits);
  }

  const redirects: string[] = [];
  const stream = openStream(url, opts, limits, redirects);

  // One deadline for everything, redirects included (got's own timeout restarts per request).
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    stream.destroy(
      new AppError('crawl_failed', `the page did not load within ${limits.timeoutMs / 1000} s`, { reason: 'timeout' }),
    );
  }, limits.timeoutMs);

  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
    const remoteAddress = response.socket?.remoteAddress ?? stream.socket?.remoteAddress;
    const finalUrl = stream.redirectUrls.at(-1)?.href ?? url.href;
    const type = acceptedType(response, limits);
    const body = await readBody(stream, limits);
    if (type === '' && !looksLikeHtml(body))
      throw crawlFailed('not_html', 'the page has no Content-Type and does not look like HTML');
    const { text, charset } = decodeHtml(body, response.headers['content-type']);
    if (text.trim() === '') throw crawlFailed('empty', 'the page is empty');

    return {
      url: url.href,
      finalUrl,
      redirects,
      status: response.statusCode ?? 0,
      contentType: type || 'text/html',
      charset,
      html: text,
      bytes: body.length,
      remoteAddress,
      fetchedAt: (opts.now ?? (() => new Date()))().toISOString(),
    };
  } catch (e) {
    throw timedOut
      ? crawlFailed('timeout', `the page did not load within ${limits.timeoutMs / 1000} s`)
      : toCrawlError(e, limits);
  } finally {
    clearTimeout(deadline);
    stream.destroy();
  }
}

/** A redirect's target, resolved as got resolves it (the header read as UTF-8, relative to the page). */
const locationOf = (response: IncomingMessage & { url?: string }): URL =>
  new URL(Buffer.from(response.headers.location ?? '', 'binary').toString(), response.url);

export const formatBytes = (n: number): string =>
  n >= 1024 * 1024 ? `${+(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${+(n / 1024).toFixed(1)} KB` : `${n} bytes`;
