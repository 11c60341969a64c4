import { createHmac } from 'node:crypto';

/**
 * `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the
 * account's webhook secret (spec 6). Each attempt signs with its own t, so a receiver's 300 s
 * tolerance holds for retries too.
 */
export const signatureHeader = (secret: string, body: string, unixSeconds: number): string =>
  `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
