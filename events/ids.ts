import { createHash, randomUUID } from 'node:crypto';

/**
 * A UUID derived from its parts (SHA-1, version 5 layout): a retried step that derives its event ids
 * from its input reproduces the very same ids, and the store's unique id refuses the second copy.
 */
export const deterministicId = (...parts: string[]): string => {
  const h = createHash('sha1').update(parts.join('\u001f')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export const randomId = (): string => randomUUID();
