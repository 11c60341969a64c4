/**
 * Acceptance-time URL checks for the API (POST /audits url, webhookUrl): everything that can be
 * decided without DNS, so a bad address gets an immediate 400. The DNS half runs when the URL is
 * used (the crawler's lookup, webhook delivery), because only then is its answer the one that counts.
 */
import { AppError } from '../../services/shared/errors.ts';
import { GuardError } from './guardError.ts';
import { checkUrl } from './urlPolicy.ts';

export interface AcceptancePolicy {
  allowPrivateAddresses: boolean;
}

const check = (field: string, raw: unknown, policy: AcceptancePolicy, httpsOnly: boolean): string => {
  if (typeof raw !== 'string') throw new AppError('invalid_request', `${field} must be a string`);
  try {
    return checkUrl(raw, { allowPrivateAddresses: policy.allowPrivateAddresses, httpsOnly }).href;
  } catch (e) {
    if (e instanceof GuardError) throw new AppError('invalid_request', `${field} is not allowed: ${e.message}`, { field, reason: e.reason });
    throw e;
  }
};

/** The audited page's URL: http or https. Returns the normalised URL. */
export const validateAuditUrl = (raw: unknown, policy: AcceptancePolicy, field = 'url'): string => check(field, raw, policy, false);

/** A webhook receiver: https only (spec 6, rule 1). Returns the normalised URL. */
export const validateWebhookUrl = (raw: unknown, policy: AcceptancePolicy, field = 'webhookUrl'): string => check(field, raw, policy, true);
