/**
 * One HTTP request to a PinnedTarget, connecting only to its checked addresses. Redirects are
 * never followed (a 3xx comes back as the answer), which is what webhook delivery needs (spec 6).
 * Host header and TLS server name stay the URL's host name, so virtual hosts and certificates work.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { PinnedTarget } from './guard.ts';

export interface PinnedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole request, from connect to the last byte of the answer. */
  timeoutMs: number;
  /** The answer's body is cut (not an error) beyond this many bytes. */
  maxResponseBytes?: number;
  /** Verify the server's certificate (default true). */
  rejectUnauthorized?: boolean;
  /** Extra trusted CA certificates (tests); NODE_EXTRA_CA_CERTS works too. */
  ca?: string | Buffer;
}

export interface PinnedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The address the socket was connected to. */
  remoteAddress: string | undefined;
}

export class PinnedRequestError extends Error {
  constructor(
    readonly kind: 'timeout' | 'network',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PinnedRequestError';
  }
}

export function requestPinned(target: PinnedTarget, opts: PinnedRequestOptions): Promise<PinnedResponse> {
  const { url } = target;
  const isHttps = url.protocol === 'https:';
  const maxBytes = opts.maxResponseBytes ?? 64 * 1024;
  const pinnedLookup = (
    _host: string,
    o: { all?: boolean; family?: number } | number,
    cb: (...args: unknown[]) => void,
  ) => {
    const all: LookupAddress[] = target.addresses.map((a) => ({ address: a.address, family: a.family }));
    // Answer asynchronously, as a real resolver does: net connects inside this callback, and a
    // connect() that fails at once (ENETUNREACH, EADDRNOTAVAIL) would otherwise emit 'error' on
    // the TLS socket before the request has attached its listener, killing the process.
    setImmediate(() => {
      if (typeof o === 'object' && o.all) cb(null, all);
      else cb(null, target.address, target.family);
    });
  };
  return new Promise((resolve, reject) => {
    const req = (isHttps ? https : http).request(
      url,
      {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        lookup: pinnedLookup as never,
        agent: false, // a fresh socket: never one opened for another host or policy
        rejectUnauthorized: opts.rejectUnauthorized ?? true,
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
          size += chunk.length;
          if (size >= maxBytes) res.destroy();
        });
        const done = () => {
          clearTimeout(timer);
          if (timedOut) return reject(timeoutError());
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            remoteAddress: req.socket?.remoteAddress,
          });
        };
        res.on('end', done);
        res.on('close', done); // also after our own destroy at the byte limit
        res.on('error', () => undefined);
      },
    );
    let timedOut = false;
    const timeoutError = () => new PinnedRequestError('timeout', `no complete answer within ${opts.timeoutMs} ms`);
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(timeoutError());
    }, opts.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e instanceof PinnedRequestError ? e : new PinnedRequestError('network', e.message, { cause: e }));
    });
    req.end(opts.body);
  });
}
