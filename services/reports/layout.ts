import { html, type Safe } from './html.ts';

/** The stylesheet's address: served by the report routes (CSP style-src 'self': no inline style). */
export const STYLESHEET_PATH = '/assets/report.css';

/** The HTML document around a page: noindex, the stylesheet (screen and print), no script. */
export const layout = (p: {
  lang: string;
  title: string;
  body: Safe;
  /** no-referrer unless a page's form must post its Origin (the sign-in: login CSRF). */
  referrer?: 'no-referrer' | 'same-origin';
}): string =>
  `<!doctype html>\n${
    html`<html lang="${p.lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="${p.referrer ?? 'no-referrer'}" />
        <title>${p.title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        ${p.body}
      </body>
    </html>`.value
  }\n`;
