import { revisionStreamId } from '../../events/revision/events.ts';
import { idOf } from '../../events/streamId.ts';
import { putContent } from '../../infra/eventStore/contentStore.ts';
import { decideInTransaction, transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { revisionDecider } from '../domain/revision/decider.ts';
import { AppError } from '../../core/errors.ts';
import { findStreamByPayload } from '../../infra/eventStore/lookups.ts';

/** Max size of an edited article: the spec's content limit (8). */
const MAX_CHARS = 200_000;

/**
 * Stores the owner's edited version of a completed revision (2.6 editedInPanel): the text in the
 * content store, RevisionEdited on the audit's revision stream. The operator CLI stands in for the app.
 */
export async function editRevision(
  pool: Pool,
  revisionId: string,
  markdown: string,
  actor: string,
): Promise<{ revisionId: string; auditId: string; chars: number }> {
  if (markdown.trim() === '') throw new AppError('invalid_request', 'the edited text is empty');
  if (markdown.length > MAX_CHARS)
    throw new AppError('invalid_request', `the edited text is over ${MAX_CHARS} characters`);
  const row = await findStreamByPayload(pool, 'RevisionRequested', 'revisionId', revisionId);
  if (!row) throw new AppError('not_found', `revision ${revisionId} not found`);
  const auditId = idOf('revision', row.streamId);
  await transact(pool, async (tx) => {
    const markdownRef = await putContent(tx, markdown);
    await decideInTransaction(tx, {
      now: new Date(),
      decider: revisionDecider,
      streamId: revisionStreamId(auditId),
      accountId: row.accountId,
      command: { type: 'EditRevision', data: { revisionId, markdownRef, actor } },
    });
  });
  return { revisionId, auditId, chars: markdown.length };
}
