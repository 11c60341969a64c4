/**
 * Every way a fetch can fail, as AppError('crawl_failed') with a message a user can act on
 * (it becomes the job's errorMessage) and a machine-readable `extra.reason`.
 */
import { AppError, isAppError } from '../../core/errors.ts';
import { findGuardError } from './guardError.ts';

export type CrawlFailure =
  | 'bad_url'
  | 'blocked'
  | 'dns'
  | 'timeout'
  | 'too_many_redirects'
  | 'connection'
  | 'tls'
  | 'http_status'
  | 'not_html'
  | 'too_large'
  | 'empty'
  | 'other';

export const crawlFailed = (reason: CrawlFailure, message: string): AppError =>
  new AppError('crawl_failed', message, { reason });

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/;

export function toCrawlError(e: unknown, limits: { timeoutMs: number; maxRedirects: number }): AppError {
  if (isAppError(e)) return e;
  const guard = findGuardError(e);
  if (guard) {
    switch (guard.reason) {
      case 'dns_failed':
        return crawlFailed('dns', guard.message);
      case 'blocked_address':
        return crawlFailed('blocked', `the address is blocked: ${guard.message}`);
      default:
        return crawlFailed('bad_url', `bad URL: ${guard.message}`);
    }
  }
  const err = e as { code?: string; message?: string; name?: string };
  const code = err.code ?? '';
  if (code === 'ERR_TOO_MANY_REDIRECTS')
    return crawlFailed('too_many_redirects', `the page redirected more than ${limits.maxRedirects} times`);
  if (code === 'ETIMEDOUT' || err.name === 'TimeoutError')
    return crawlFailed('timeout', `the page did not load within ${limits.timeoutMs / 1000} s`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return crawlFailed('dns', `the host name could not be resolved (${code})`);
  if (code === 'ECONNREFUSED') return crawlFailed('connection', 'the server refused the connection');
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE')
    return crawlFailed('connection', 'the server closed the connection early');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return crawlFailed('connection', 'the server is unreachable');
  if (TLS_CODES.test(code)) return crawlFailed('tls', `TLS failed (${code})`);
  if (code === 'ERR_INVALID_URL' || code === 'ERR_UNSUPPORTED_PROTOCOL')
    return crawlFailed('bad_url', `bad URL: ${err.message ?? code}`);
  return crawlFailed('other', `the page could not be fetched: ${err.message ?? String(e)}`);
}
