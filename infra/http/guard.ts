/**
 * The SSRF guard: one object per policy that checks URLs, resolves host names and checks every
 * address they resolve to. Its `lookup` is what HTTP agents call instead of DNS, so the address a
 * socket connects to is always one that was checked in that same call: there is no second lookup
 * for a rebinding DNS server to answer differently. Used by the crawler (http and https) and by
 * webhook delivery (https only, checked again at delivery time through `resolveTarget`).
 */
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import { classifyAddress, isIpLiteral } from './addressPolicy.ts';
import { GuardError } from './guardError.ts';
import { systemResolver, type ResolvedAddress, type Resolver } from './resolver.ts';
import { bareHost, checkUrl, type UrlPolicy } from './urlPolicy.ts';

export interface GuardOptions extends UrlPolicy {
  resolver?: Resolver;
}

/** A URL together with the checked addresses a connection for it may use. */
export interface PinnedTarget {
  url: URL;
  /** Host without IPv6 brackets: the TLS server name and what the Host header names. */
  hostname: string;
  /** The address to connect to (the first checked one). */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to; all of them passed the check. */
  addresses: ResolvedAddress[];
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** The `lookup` option of net.connect / http.request / got's dnsLookup. */
export type GuardedLookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions | number,
  callback: LookupCallback,
) => void;

export interface UrlGuard {
  readonly options: Readonly<GuardOptions>;
  /** Syntax, scheme, credentials, port and literal addresses; no I/O. */
  checkUrl(raw: string | URL): URL;
  /** Resolves a host (or takes an IP literal as is) and checks every address. */
  resolveHost(hostname: string): Promise<ResolvedAddress[]>;
  /** checkUrl + resolveHost: what a webhook sender calls right before connecting. */
  resolveTarget(raw: string | URL): Promise<PinnedTarget>;
  /** A checked DNS lookup for HTTP agents; fails closed. */
  lookup: GuardedLookup;
}

export function createGuard(options: GuardOptions): UrlGuard {
  const resolver = options.resolver ?? systemResolver();
  const classify = options.classify ?? classifyAddress;

  const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: ResolvedAddress[];
    if (isIpLiteral(host)) {
      addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
    } else {
      try {
        addresses = await resolver(host);
      } catch (e) {
        throw new GuardError('dns_failed', `could not resolve ${host}: ${(e as Error).message}`);
      }
      if (addresses.length === 0) throw new GuardError('dns_failed', `${host} has no addresses`);
    }
    if (!options.allowPrivateAddresses) {
      // Any refused address refuses the host: we must not leave it to chance which one is used.
      for (const a of addresses) {
        const verdict = classify(a.address);
        if (!verdict.allowed) {
          const what = a.address === host ? `the address ${host}` : `${host} resolves to ${a.address}, which`;
          throw new GuardError('blocked_address', `${what} is not public (${verdict.reason})`);
        }
      }
    }
    return addresses;
  };

  const lookup: GuardedLookup = (hostname, opts, callback) => {
    const o = typeof opts === 'number' ? { family: opts } : opts;
    resolveHost(hostname).then(
      (addresses) => {
        const wanted = o.family === 4 || o.family === 6 ? addresses.filter((a) => a.family === o.family) : addresses;
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new GuardError('dns_failed', `${hostname} has no IPv${o.family} address`);
          return callback(err, '', 0);
        }
        if ((o as LookupAllOptions).all) return callback(null, wanted);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: GuardError) => callback(err, '', 0),
    );
  };

  return {
    options,
    checkUrl: (raw) => checkUrl(raw, options),
    resolveHost,
    async resolveTarget(raw) {
      const url = checkUrl(raw, options);
      const hostname = bareHost(url);
      const addresses = await resolveHost(hostname);
      const first = addresses[0]!;
      return { url, hostname, address: first.address, family: first.family, addresses };
    },
    lookup,
  };
}
