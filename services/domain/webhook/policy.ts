import type { AbandonReason, AttemptError } from '../../../events/webhook/events.ts';

/**
 * Spec 6 delivery rules as numbers and one verdict per attempt. Only here: the decider applies
 * them, the worker only asks what to do next.
 */
export const MAX_ATTEMPTS = 3;
/** Pause after attempt n (index n-1) before attempt n+1: 1 s, then 4 s. */
export const PAUSES_MS = [1_000, 4_000] as const;
/** The receiver has this long to answer completely. */
export const RESPONSE_TIMEOUT_MS = 10_000;

export type Verdict = { kind: 'delivered' } | { kind: 'retry' } | { kind: 'stop'; reason: AbandonReason };

/** The guard refused the address itself: asking again cannot help (rule 1). A DNS failure may pass. */
const REFUSED: readonly AttemptError[] = ['invalid_url', 'scheme', 'credentials', 'port', 'blocked_address'];

/**
 * What one attempt's answer means: 2xx delivered (rule 2: directly, never through a redirect);
 * a 3xx, or a 4xx other than 408 and 429, ends the attempts (rule 4); anything else — 408, 429,
 * 5xx, a timeout, a broken connection — is worth another attempt while attempts remain (rule 3).
 */
export function judge(status: number | null, error: AttemptError | null): Verdict {
  if (status !== null) {
    if (status >= 200 && status <= 299) return { kind: 'delivered' };
    if (status >= 300 && status <= 399) return { kind: 'stop', reason: 'redirect' };
    if (status >= 400 && status <= 499 && status !== 408 && status !== 429)
      return { kind: 'stop', reason: 'client_error' };
    return { kind: 'retry' };
  }
  if (error !== null && REFUSED.includes(error)) return { kind: 'stop', reason: 'refused_address' };
  return { kind: 'retry' };
}
