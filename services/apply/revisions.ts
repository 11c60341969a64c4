import type { EventEnvelope } from '../../events/envelope.ts';
import { revisionStreamId } from '../../events/revision/events.ts';
import { loadStream } from '../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { revisionDecider, type RevisionsState } from '../domain/revision/decider.ts';

export interface LoadedRevisions {
  state: RevisionsState;
  /** When each revision was requested (its RevisionRequested event). */
  createdAt: Map<string, string>;
}

/**
 * An audit's revisions, read from its stream: a handful of events per audit, and the stream is the
 * command side's truth, so a poll right after POST sees the revision it started.
 */
export async function loadRevisions(db: Queryable, auditId: string): Promise<LoadedRevisions> {
  const { state, events } = await loadStream(db, revisionDecider, revisionStreamId(auditId));
  const createdAt = new Map<string, string>();
  for (const e of events as EventEnvelope[])
    if (e.type === 'RevisionRequested') createdAt.set((e.payload as { revisionId: string }).revisionId, e.occurredAt);
  return { state, createdAt };
}
