import { createHash } from 'node:crypto';

/**
 * What the log keeps of a secret its holder presents (a share token): `sha256:<hex>`, enough to
 * check a presented one, useless to open anything (events/schemaTypes.ts SecretHash).
 */
export const secretHashOf = (secret: string): string =>
  `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;

export const isSecretHash = (s: string): boolean => /^sha256:[0-9a-f]{64}$/.test(s);
