import type { ShareLang } from '../../events/share/events.ts';
import { html } from './html.ts';
import { labelsFor } from './labels.ts';
import { layout } from './layout.ts';

/**
 * The one answer for a share address that does not open a report: unknown, expired and revoked
 * alike, so the page tells a visitor nothing about which it was.
 */
export const notFoundPage = (lang: ShareLang): string => {
  const L = labelsFor(lang);
  return layout({
    lang: L.htmlLang,
    title: L.notFoundTitle,
    body: html`<main class="plain">
      <h1>${L.notFoundTitle}</h1>
      <p>${L.notFoundText}</p>
    </main>`,
  });
};

/** The owner's sign-in (no app yet: an API key of the account stands in for a password). */
export const signInPage = (o: { action: string; next: string; csrf: string; error?: string | undefined }): string =>
  layout({
    lang: 'en',
    title: 'Sign in',
    referrer: 'same-origin',
    body: html`<main class="plain">
      <h1>Sign in to your reports</h1>
      <p>
        Paste an API key of your account (one with the <code>audits:read</code> scope). It is checked once and not kept;
        you get a session cookie instead.
      </p>
      ${o.error ? html`<p class="error" role="alert">${o.error}</p>` : ''}
      <form method="post" action="${o.action}">
        <label for="apiKey">API key</label>
        <input id="apiKey" name="apiKey" type="password" autocomplete="current-password" required />
        <input type="hidden" name="next" value="${o.next}" />
        <input type="hidden" name="csrf" value="${o.csrf}" />
        <button type="submit">Sign in</button>
      </form>
    </main>`,
  });

/** An audit of the owner that is not completed yet (or failed): no report to show. */
export const statusPage = (o: { status: string; message: string | null; signOutPath: string; email: string }): string =>
  layout({
    lang: 'en',
    title: `Audit ${o.status}`,
    body: html`<nav class="owner" aria-label="Signed in as">
        <span>Signed in as <strong>${o.email}</strong></span>
        <form method="post" action="${o.signOutPath}"><button type="submit">Sign out</button></form>
      </nav>
      <main class="plain">
        <h1>This audit is ${o.status}</h1>
        <p>${o.message ?? 'The report appears here once the audit has completed.'}</p>
      </main>`,
  });
