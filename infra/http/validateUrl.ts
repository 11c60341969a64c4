/**
 * Acceptance-time URL checks for the API (POST /audits url, webhookUrl): the text of the URL (no
 * I/O), then its host name's addresses (`refuseResolvingToPrivate`), so a bad address gets an
 * immediate 400 (spec 4.2, 6.1: "including hostnames that resolve to one"). The check runs again
 * when the URL is used (the crawler's lookup, webhook delivery), because only that answer counts
 * against a DNS server that changes its answer (rebinding).
 */
import { AppError } from '../../core/errors.ts';
import { createGuard } from './guard.ts';
import { GuardError } from './guardError.ts';
import { systemResolver, type Resolver } from './resolver.ts';
import { bareHost, checkUrl } from './urlPolicy.ts';

export interface AcceptancePolicy {
  allowPrivateAddresses: boolean;
  /** The DNS of the acceptance check; the system's by default, a hostile one in tests. */
  resolver?: Resolver;
}

/** A client waits for this check, so its lookup is kept short; a slow DNS is judged at fetch time. */
export const ACCEPTANCE_DNS_TIMEOUT_MS = 2_000;
const acceptanceResolver = systemResolver(ACCEPTANCE_DNS_TIMEOUT_MS);

/**
 * 400 when the URL's host name resolves to a private, loopback or otherwise non-public address.
 * A name that does not resolve now is accepted: DNS may be down for a moment, and the fetch (or
 * the delivery) refuses it then with its own error.
 */
export async function refuseResolvingToPrivate(field: string, url: string, policy: AcceptancePolicy): Promise<void> {
  if (policy.allowPrivateAddresses) return;
  const guard = createGuard({ allowPrivateAddresses: false, resolver: policy.resolver ?? acceptanceResolver });
  try {
    await guard.resolveHost(bareHost(new URL(url)));
  } catch (e) {
    if (e instanceof GuardError && e.reason === 'blocked_address') {
      throw new AppError('invalid_request', `${field} is not allowed: ${e.message}`, { field, reason: e.reason });
    }
  }
}

const check = (field: string, raw: unknown, policy: AcceptancePolicy, httpsOnly: boolean): string => {
  if (typeof raw !== 'string') throw new AppError('invalid_request', `${field} must be a string`);
  try {
    return checkUrl(raw, { allowPrivateAddresses: policy.allowPrivateAddresses, httpsOnly }).href;
  } catch (e) {
    if (e instanceof GuardError)
      throw new AppError('invalid_request', `${field} is not allowed: ${e.message}`, { field, reason: e.reason });
    throw e;
  }
};

/** The audited page's URL: http or https. Returns the normalised URL. */
export const validateAuditUrl = (raw: unknown, policy: AcceptancePolicy, field = 'url'): string =>
  check(field, raw, policy, false);

/** A webhook receiver: https only (spec 6, rule 1). Returns the normalised URL. */
export const validateWebhookUrl = (raw: unknown, policy: AcceptancePolicy, field = 'webhookUrl'): string =>
  check(field, raw, policy, true);
