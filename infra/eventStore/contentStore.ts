import { createHash } from 'node:crypto';
import type { Queryable } from '../postgres/pool.ts';
import { storableText } from '../postgres/storableText.ts';
import { unnestRows } from '../postgres/unnestRows.ts';

/**
 * Content too large for an event (supplied text up to 200,000 characters, fetched pages) is kept
 * here, addressed by its SHA-256; events carry the reference. Rows are immutable and written in the
 * same transaction as the event that refers to them, so the log stays complete.
 */
export const contentRefOf = (body: string): string => createHash('sha256').update(storableText(body)).digest('hex');

/** Stores the body as the store can hold it (storableText: no NUL); the ref is of what is stored. */
export async function putContent(db: Queryable, body: string): Promise<string> {
  await putContents(db, [body]);
  return contentRefOf(body);
}

const CONTENT_ROWS = unnestRows([
  ['ref', 'text'],
  ['body', 'text'],
]);

/** The same for several bodies in one statement (a batch of submissions). */
export async function putContents(db: Queryable, bodies: readonly string[]): Promise<void> {
  if (bodies.length === 0) return;
  // Sorted: two transactions storing the same new bodies wait for each other in one order, not both.
  const byRef = new Map(
    bodies.map((body) => [contentRefOf(body), storableText(body)] as const).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  // A body already stored is not inserted again: ON CONFLICT alone would make every transaction
  // storing the same body wait for the one before it to commit (the same text submitted many
  // times at once queued behind one lock). Only bodies racing to be first can still wait.
  await db.query({
    name: 'put_contents',
    text: `INSERT INTO content_blobs (${CONTENT_ROWS.names})
           SELECT c.ref, c.body FROM ${CONTENT_ROWS.unnest} AS c(${CONTENT_ROWS.names})
            WHERE NOT EXISTS (SELECT 1 FROM content_blobs b WHERE b.ref = c.ref)
           ON CONFLICT (ref) DO NOTHING`,
    values: CONTENT_ROWS.values([...byRef]),
  });
}

export async function getContent(db: Queryable, ref: string): Promise<string | null> {
  const r = await db.query<{ body: string }>('SELECT body FROM content_blobs WHERE ref = $1', [ref]);
  return r.rows[0]?.body ?? null;
}
