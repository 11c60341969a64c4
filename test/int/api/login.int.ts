import t from 'tap';
import { auditApi, PUBLIC_BASE_URL } from './audits/fixtures/auditApi.ts';

/**
 * The sign-in of the report pages against login CSRF: another site must not be able to sign a
 * visitor into the attacker's account (a form on evil.example posting the attacker's key).
 */
type Injected = { statusCode: number; headers: Record<string, unknown>; body: string };

const setCookies = (res: Injected): string[] => {
  const h = res.headers['set-cookie'];
  return h === undefined ? [] : Array.isArray(h) ? (h as string[]) : [String(h)];
};
const cookieNamed = (res: Injected, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`));
const valueOf = (cookie: string | undefined) => cookie?.split(';')[0]!.split('=').slice(1).join('=');
const tokenIn = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

t.test('POST /app/login refuses a cross-site sign-in', async (t) => {
  const f = await auditApi(t);
  const attacker = await f.account();
  const sessions = async () =>
    (await f.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM app_sessions')).rows[0]!.n;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    f.app.inject({
      method: 'POST',
      url: '/app/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: form(fields),
    });

  // What the attacker's own visit to the sign-in page gives them: a token and its cookie.
  const theirs = await f.app.inject({ method: 'GET', url: '/app/login' });
  const theirCookie = valueOf(cookieNamed(theirs, 'audit_login'));
  const theirToken = tokenIn(theirs.body);

  t.test('the form carries a token bound to a pre-session cookie (HttpOnly, SameSite=Strict)', async (t) => {
    t.equal(theirs.statusCode, 200);
    t.ok(theirToken, 'a hidden csrf field');
    const cookie = cookieNamed(theirs, 'audit_login')!;
    t.match(cookie, /HttpOnly/);
    t.match(cookie, /SameSite=Strict/);
    t.match(cookie, /Secure/, 'PUBLIC_BASE_URL is https');
    t.equal(theirs.headers['referrer-policy'], 'same-origin', 'so our own form posts its Origin');
  });

  t.test('cross-site POSTs: 403, no session, no cookie', async (t) => {
    const cases: [string, Record<string, string>, Record<string, string>][] = [
      ['a form on another site (no cookie, no token)', { apiKey: attacker.apiKey }, { origin: 'https://evil.example' }],
      [
        "the attacker's own token, but not the visitor's cookie",
        { apiKey: attacker.apiKey, csrf: theirToken! },
        { origin: 'https://evil.example' },
      ],
      ["the attacker's token without any Origin or Referer", { apiKey: attacker.apiKey, csrf: theirToken! }, {}],
      [
        'a valid cookie and token, posted from another origin',
        { apiKey: attacker.apiKey, csrf: theirToken! },
        { origin: 'https://evil.example', cookie: `audit_login=${theirCookie}` },
      ],
      [
        'a valid cookie and token, Origin null (a sandboxed frame)',
        { apiKey: attacker.apiKey, csrf: theirToken! },
        { origin: 'null', cookie: `audit_login=${theirCookie}` },
      ],
      [
        'a valid cookie and token, Referer of another site',
        { apiKey: attacker.apiKey, csrf: theirToken! },
        { referer: 'https://evil.example/page', cookie: `audit_login=${theirCookie}` },
      ],
      [
        'a cookie and a token that do not match',
        { apiKey: attacker.apiKey, csrf: 'A'.repeat(43) },
        { origin: PUBLIC_BASE_URL, cookie: `audit_login=${theirCookie}` },
      ],
    ];
    for (const [what, fields, headers] of cases) {
      const res = await post(fields, headers);
      t.equal(res.statusCode, 403, what);
      t.equal(cookieNamed(res, 'audit_session'), undefined, `${what}: no session cookie`);
      t.match(res.body, /came from another site or has expired/, `${what}: says why`);
      t.ok(tokenIn(res.body), `${what}: a fresh form to sign in from`);
    }
    t.equal(await sessions(), 0, 'no session opened');
  });

  t.test('the sign-in from our own form works and spends the pre-session cookie', async (t) => {
    const page = await f.app.inject({ method: 'GET', url: '/app/login?next=/app/audits/aud_x' });
    const cookie = valueOf(cookieNamed(page, 'audit_login'))!;
    const token = tokenIn(page.body)!;
    for (const origin of <Record<string, string>[]>[
      { origin: PUBLIC_BASE_URL },
      { origin: 'http://localhost:80' },
      { referer: `${PUBLIC_BASE_URL}/app/login` },
    ]) {
      const wrongKey = await post(
        { apiKey: 'ask_wrong', csrf: token, next: '/app/audits/aud_x' },
        { ...origin, cookie: `audit_login=${cookie}` },
      );
      t.equal(wrongKey.statusCode, 401, 'a wrong key is still a 401');
      t.equal(tokenIn(wrongKey.body), token, 'the form again, with the same token');
      const res = await post(
        { apiKey: attacker.apiKey, csrf: token, next: '/app/audits/aud_x' },
        { ...origin, cookie: `audit_login=${cookie}` },
      );
      t.equal(res.statusCode, 303, JSON.stringify(origin));
      t.equal(res.headers.location, '/app/audits/aud_x');
      t.ok(cookieNamed(res, 'audit_session'), 'signed in');
      t.match(cookieNamed(res, 'audit_login'), /Expires=Thu, 01 Jan 1970/, 'the pre-session cookie is cleared');
    }
  });
});
