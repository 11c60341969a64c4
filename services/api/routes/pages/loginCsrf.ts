import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBase64Url } from '../../../../core/ids.ts';

/**
 * Login CSRF defence of the sign-in page (OWASP: double-submit token bound to a pre-session
 * cookie, plus an Origin/Referer check). Without it a page on another site could post the
 * attacker's key to /app/login and sign the visitor into the attacker's account.
 * - GET /app/login sets `audit_login` (256 random bits, HttpOnly, SameSite=Strict: a cross-site
 *   POST never carries it) and puts the same value in the form; the POST must bring both, equal.
 * - An Origin (or, without one, a Referer) must be this site: PUBLIC_BASE_URL's origin or the
 *   request's own Host. `Origin: null` is refused. A POST with neither relies on the token.
 */
export const LOGIN_COOKIE = 'audit_login';
const LOGIN_COOKIE_TTL_SECONDS = 3600;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The visitor's pre-session token, issued (or renewed) with its cookie. */
export function loginToken(request: FastifyRequest, reply: FastifyReply, path: string, secure: boolean): string {
  const existing = request.cookies[LOGIN_COOKIE];
  const token = existing && TOKEN.test(existing) ? existing : randomBase64Url(32);
  reply.setCookie(LOGIN_COOKIE, token, {
    path,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: LOGIN_COOKIE_TTL_SECONDS,
  });
  return token;
}

/** Spent after a sign-in: a token serves one session. */
export const clearLoginToken = (reply: FastifyReply, path: string, secure: boolean): void => {
  reply.clearCookie(LOGIN_COOKIE, { path, httpOnly: true, sameSite: 'strict', secure });
};

/** Whether a sign-in POST comes from this site's own form. */
export function isSameSiteLogin(request: FastifyRequest, publicBaseUrl: string, formToken: unknown): boolean {
  const cookie = request.cookies[LOGIN_COOKIE];
  if (typeof formToken !== 'string' || !cookie || !TOKEN.test(cookie) || !TOKEN.test(formToken)) return false;
  if (!timingSafeEqual(Buffer.from(cookie), Buffer.from(formToken))) return false;
  const origin = request.headers.origin ?? request.headers.referer;
  return origin === undefined || isOwnOrigin(origin, publicBaseUrl, request.headers.host);
}

function isOwnOrigin(value: string, publicBaseUrl: string, host: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false; // `null` (a sandboxed frame, a privacy redirect) and garbage alike
  }
  return url.origin === new URL(publicBaseUrl).origin || (host !== undefined && url.host === hostOf(url, host));
}

/** The Host header as a URL of the Origin's scheme writes it (`localhost:80` is `localhost` for http). */
const hostOf = (origin: URL, host: string): string | undefined => {
  try {
    return new URL(`${origin.protocol}//${host}`).host;
  } catch {
    return undefined;
  }
};
