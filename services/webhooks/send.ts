import { rootCertificates } from 'node:tls';
import type { AttemptError, WebhookEventName } from '../../events/webhook/events.ts';
import type { UrlGuard } from '../../infra/http/guard.ts';
import { findGuardError } from '../../infra/http/guardError.ts';
import { PinnedRequestError, requestPinned } from '../../infra/http/pinnedRequest.ts';
import { signatureHeader } from './signature.ts';

export interface Delivery {
  url: string;
  event: WebhookEventName;
  /** X-Service-Delivery: the job id, the same on every attempt. */
  deliveryId: string;
  body: string;
  secret: string;
}

export interface SendOptions {
  /** An https-only guard: the address is checked again now, DNS included (spec 6.1). */
  guard: UrlGuard;
  timeoutMs: number;
  /**
   * Extra CA certificates to trust besides the system's (tests only: a self-signed receiver).
   * A spawned service trusts one through NODE_EXTRA_CA_CERTS instead.
   */
  extraCa?: string;
  now?: () => Date;
}

export interface AttemptResult {
  status: number | null;
  error: AttemptError | null;
  detail: string | null;
  durationMs: number;
}

/** The answer is not read beyond this: only its status counts. */
const MAX_RESPONSE_BYTES = 4096;

/**
 * One POST of a webhook to a freshly checked, pinned address; never follows a redirect. Never
 * throws for anything the receiver or the network does: that is an attempt's outcome.
 */
export async function sendOnce(d: Delivery, o: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const target = await o.guard.resolveTarget(d.url);
    const t = Math.floor((o.now?.() ?? new Date()).getTime() / 1000);
    const res = await requestPinned(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'audit-service-webhooks/v1.4',
        'x-service-signature': signatureHeader(d.secret, d.body, t),
        'x-service-event': d.event,
        'x-service-delivery': d.deliveryId,
      },
      body: d.body,
      timeoutMs: o.timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      // `ca` replaces Node's trust store, so the system's roots come along: the extra CA adds trust.
      ...(o.extraCa ? { ca: [...rootCertificates, o.extraCa].join('\n') } : {}),
    });
    return { status: res.status, error: null, detail: null, durationMs: took() };
  } catch (e) {
    const refused = findGuardError(e);
    if (refused) return { status: null, error: refused.reason, detail: refused.message, durationMs: took() };
    const kind = e instanceof PinnedRequestError ? e.kind : 'network';
    return { status: null, error: kind, detail: (e as Error)?.message ?? String(e), durationMs: took() };
  }
}
