import type { FastifyReply } from 'fastify';

/**
 * Headers of every report page: a Content-Security-Policy that allows no script at all (nothing
 * the audited text could smuggle in would run) and only this site's stylesheet, no framing, no
 * indexing, no Referer (the share token is in the address: a click on a competitor's link must not
 * carry it away), and no caching, so a revoked link is not served from a cache.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const sendPage = (
  reply: FastifyReply,
  status: number,
  body: string,
  // The sign-in page holds no token in its address, and its form must post its Origin (login CSRF).
  referrerPolicy: 'no-referrer' | 'same-origin' = 'no-referrer',
): FastifyReply =>
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-robots-tag', 'noindex, nofollow')
    .header('referrer-policy', referrerPolicy)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .send(body);
