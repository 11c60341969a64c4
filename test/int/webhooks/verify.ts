import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Received } from '../../helpers/webhookReceiver.ts';

/**
 * A receiver's check, written from spec 6 alone (not the service's code): v1 is the hex
 * HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook secret, compared in constant time, and t
 * within 300 s of now. Returns why it fails, or null.
 */
export function verifyFromSpec(r: Received, secret: string, nowSeconds = Date.now() / 1000): string | null {
  const header = r.headers['x-service-signature'];
  if (typeof header !== 'string') return 'no X-Service-Signature';
  const parts = new Map(
    header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const),
  );
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !/^\d+$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return `malformed header ${header}`;
  if (Math.abs(nowSeconds - Number(t)) > 300) return 'timestamp outside the 300 s tolerance';
  const expected = createHmac('sha256', secret).update(`${t}.${r.rawBody}`, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) ? null : 'signature mismatch';
}

export const signedAt = (r: Received): number => Number(/t=(\d+)/.exec(String(r.headers['x-service-signature']))?.[1]);
