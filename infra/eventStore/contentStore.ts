import { createHash } from 'node:crypto';
import type { Queryable } from '../postgres/pool.ts';
import { storableText } from '../postgres/storableText.ts';

/**
 * Content too large for an event (supplied text up to 200,000 characters, fetched pages) is kept
 * here, addressed by its SHA-256; events carry the reference. Rows are immutable and written in the
 * same transaction as the event that refers to them, so the log stays complete.
 */
export const contentRefOf = (body: string): string => createHash('sha256').update(storableText(body)).digest('hex');

/** Stores the body as the store can hold it (storableText: no NUL); the ref is of what is stored. */
export async function putContent(db: Queryable, body: string): Promise<string> {
  const ref = contentRefOf(body);
  await db.query('INSERT INTO content_blobs (ref, body) VALUES ($1, $2) ON CONFLICT (ref) DO NOTHING', [
    ref,
    storableText(body),
  ]);
  return ref;
}

export async function getContent(db: Queryable, ref: string): Promise<string | null> {
  const r = await db.query<{ body: string }>('SELECT body FROM content_blobs WHERE ref = $1', [ref]);
  return r.rows[0]?.body ?? null;
}
