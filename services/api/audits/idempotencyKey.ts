import { AppError } from '../../../core/errors.ts';
import { IDEMPOTENCY_KEY_MAX_CHARS } from '../../pipeline/limits.ts';

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The Idempotency-Key header (spec 4.2): absent → null; otherwise 1 to 255 visible ASCII
 * characters (no spaces, no control characters: keys are compared byte for byte, and a UUID, a
 * ULID or a hash all fit). Anything else is a 400, never silently a request without a key.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw bad('Idempotency-Key must be sent once');
  if (header.length === 0 || header.length > IDEMPOTENCY_KEY_MAX_CHARS || !VISIBLE_ASCII.test(header)) {
    throw bad(
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters (letters, digits, punctuation; no spaces)`,
    );
  }
  return header;
}

const bad = (message: string) => new AppError('invalid_request', message, { field: 'Idempotency-Key' });
