/**
 * A URL's host as the service compares hosts: lower-case, without a trailing dot or a leading
 * `www.`; null for no URL or one that does not parse. The engine (competitor domains, internal
 * links) and the audits read model (the list's domain filter, spec 4.9) use the same rule.
 */
export const hostOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).hostname
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^www\./, '');
  } catch {
    return null;
  }
};

/**
 * A link to a place on the same page (`#section`, or a bare `#`): the page's own navigation, such
 * as a table of contents, not a link to another page of the site or of the web.
 */
export const isInPageHref = (href: string): boolean => href.trimStart().startsWith('#');
