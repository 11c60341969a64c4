/**
 * The URL half of the SSRF guard: what can be decided from the text of a URL alone, before any
 * DNS. Node's WHATWG URL parser does the normalising (decimal, octal, hex and short IPv4 forms,
 * full-width digits, trailing dots and IPv6 spellings all come out canonical, and zone ids are
 * refused), so the checks below only ever see canonical hosts.
 */
import { classifyAddress, isIpLiteral, type AddressVerdict } from './addressPolicy.ts';
import { GuardError } from './guardError.ts';

export const MAX_URL_LENGTH = 2048;

/**
 * The Fetch Standard's "bad ports": ports of protocols that an HTTP request could be smuggled into
 * (SMTP, IRC, ...). Browsers refuse them; so do we. Every other port is allowed, since real sites do
 * live on 8080 or 8443 and the address rules already keep requests off private networks.
 */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export interface UrlPolicy {
  /** Lifts the address rules (literal IPs, localhost), never the others. Development and tests only. */
  allowPrivateAddresses: boolean;
  /** Webhooks: https only. */
  httpsOnly?: boolean;
  /** The address rule; tests replace it to let a loopback address stand in for a public one. */
  classify?: (address: string) => AddressVerdict;
}

/** The host of a URL without IPv6 brackets, as a resolver or classifier expects it. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

const isLocalhostName = (host: string): boolean => {
  const h = host.replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
};

/** Parses and checks a URL; returns the normalised URL or throws GuardError. No I/O. */
export function checkUrl(raw: string | URL, policy: UrlPolicy): URL {
  const text = typeof raw === 'string' ? raw.trim() : raw.href;
  if (text.length === 0) throw new GuardError('invalid_url', 'the URL is empty');
  if (text.length > MAX_URL_LENGTH)
    throw new GuardError('invalid_url', `the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new GuardError('invalid_url', `"${shorten(text)}" is not a valid absolute URL`);
  }
  const schemes = policy.httpsOnly ? ['https:'] : ['http:', 'https:'];
  if (!schemes.includes(url.protocol)) {
    throw new GuardError(
      'scheme',
      `the URL scheme must be ${policy.httpsOnly ? 'https' : 'http or https'}, got "${url.protocol.replace(/:$/, '')}"`,
    );
  }
  if (url.username !== '' || url.password !== '')
    throw new GuardError('credentials', 'URLs with a user name or password are not allowed');
  if (url.hostname === '') throw new GuardError('invalid_url', 'the URL has no host');
  if (url.port !== '' && BAD_PORTS.has(Number(url.port)))
    throw new GuardError('port', `port ${url.port} is not allowed`);

  if (!policy.allowPrivateAddresses) {
    const host = bareHost(url);
    if (isIpLiteral(host)) {
      const verdict = (policy.classify ?? classifyAddress)(host);
      if (!verdict.allowed)
        throw new GuardError('blocked_address', `the address ${host} is not public (${verdict.reason})`);
    } else if (isLocalhostName(host)) {
      throw new GuardError('blocked_address', `the host ${host} is local`);
    }
  }
  return url;
}

const shorten = (s: string): string => (s.length > 100 ? `${s.slice(0, 100)}...` : s);
