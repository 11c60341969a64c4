/**
 * DNS resolution for the guard. The system resolver (getaddrinfo, so /etc/hosts counts) is the
 * default because it answers what the operating system itself would connect to; tests inject
 * their own to play a hostile DNS server without one.
 */
import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to, in the resolver's order. Rejects when there are none. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const DNS_TIMEOUT_MS = 5_000;

export const systemResolver =
  (timeoutMs = DNS_TIMEOUT_MS): Resolver =>
  async (hostname) => {
    // getaddrinfo cannot be cancelled; the race only stops us from waiting for it.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`DNS lookup timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
      return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } finally {
      clearTimeout(timer);
    }
  };
