import { getDomain } from 'tldts';
import { AppError } from '../../../core/errors.ts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The job list's domain filter (spec 4.9): a host name or a full address whose host is taken,
 * lower-cased and IDN-encoded by the WHATWG URL parser (as the audits read model stores it), with a
 * leading `www.` dropped. Invalid → 400. Matching (queries.ts) is the host itself or any subdomain
 * of it, label-wise, so lookalikes (notexample.com, example.com.evil.org) never match. A public
 * suffix alone (`com`, `co.uk`, per the Public Suffix List through tldts) is not a domain: as a
 * filter it would match every audit under it, so it is a 400 too.
 */
export function parseDomainFilter(raw: string): string {
  const bad = () =>
    new AppError(
      'invalid_request',
      `domain must be a host name such as example.com or an address such as https://example.com/page; got ${JSON.stringify(raw.slice(0, 60))}`,
      { field: 'domain' },
    );
  const value = raw.trim();
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).hostname;
  } catch {
    throw bad();
  }
  host = host.replace(/\.$/, '').replace(/^www\./, '');
  if (host.startsWith('[') || IPV4.test(host)) return host; // an address audited by its IP
  if (host.length === 0 || host.length > 253 || !host.split('.').every((l) => LABEL.test(l))) throw bad();
  if (getDomain(host, { allowPrivateDomains: false }) === null) {
    throw new AppError(
      'invalid_request',
      `domain ${JSON.stringify(host)} is a top-level domain or public suffix, not a domain; give a name such as example.${host}`,
      { field: 'domain' },
    );
  }
  return host;
}
