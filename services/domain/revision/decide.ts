import { deterministicId } from '../../../core/ids.ts';
import type { RevisionEvent } from '../../../events/revision/events.ts';
import { AppError } from '../../../core/errors.ts';
import type { RevisionCommand } from './commands.ts';
import { revisionOf, type RevisionEntry, type RevisionsState } from './state.ts';

/** The canonical form of a selection: a set, so order and repeats do not make a new selection (4.11 rule 2). */
export const selectionKeyOf = (ids: readonly string[]): string => [...new Set(ids)].sort().join('\n');

/**
 * What a POST apply with this selection means on this audit's revisions (spec 4.11, 3.4):
 * - the same selection still generating: that revision, 200, no second charge (also with force:
 *   one generation of a selection at a time);
 * - the same selection finished (the newest such revision completed) and no force: 200 fromCache;
 * - otherwise a new revision, 202 and 1 credit. A failed generation was refunded, so asking again
 *   starts a new one.
 */
export type Plan =
  | { kind: 'inFlight'; revision: RevisionEntry }
  | { kind: 'cached'; revision: RevisionEntry }
  | { kind: 'new'; revisionId: string };

export const planRequest = (state: RevisionsState, auditId: string, selectionKey: string, force: boolean): Plan => {
  const same = state.revisions.filter((r) => r.selectionKey === selectionKey);
  const generating = same.find((r) => r.status === 'generating');
  if (generating) return { kind: 'inFlight', revision: generating };
  const lastCompleted = [...same].reverse().find((r) => r.status === 'completed');
  if (lastCompleted && !force) return { kind: 'cached', revision: lastCompleted };
  return {
    kind: 'new',
    revisionId: `rev_${deterministicId('revision', auditId, selectionKey, String(same.length)).replace(/-/g, '').slice(0, 24)}`,
  };
};

/**
 * The rules of an audit's revisions. A repeat of a step already taken returns [] (retries are safe);
 * a step on a revision that does not exist is refused.
 */
export const decide = (command: RevisionCommand, state: RevisionsState): RevisionEvent[] => {
  if (command.type === 'RequestRevision') {
    const d = command.data;
    if (d.selectedIds.length === 0) throw new AppError('invalid_request', 'No applicable ids in selectedIds');
    const plan = planRequest(state, d.auditId, d.selectionKey, d.force);
    if (plan.kind !== 'new') return [];
    if (plan.revisionId !== d.revisionId)
      throw new AppError(
        'concurrency_conflict',
        `revision ${d.revisionId} is no longer the next one of this selection`,
      );
    return [
      {
        type: 'RevisionRequested',
        data: {
          revisionId: d.revisionId,
          auditId: d.auditId,
          jobId: d.jobId,
          selectedIds: [...d.selectedIds],
          selectionKey: d.selectionKey,
          force: d.force,
        },
      },
    ];
  }
  const r = revisionOf(state, command.data.revisionId);
  if (!r) throw new AppError('not_found', `revision ${command.data.revisionId} not found`);
  switch (command.type) {
    case 'RecordCharge':
      return r.charged ? [] : [{ type: 'RevisionCharged', data: { ...command.data } }];
    case 'CompleteGeneration':
      return r.status !== 'generating' ? [] : [{ type: 'RevisionGenerated', data: { ...command.data } }];
    case 'FailGeneration':
      return r.status !== 'generating' ? [] : [{ type: 'RevisionFailed', data: { ...command.data } }];
    case 'RecordRefund':
      if (r.status !== 'failed')
        throw new AppError(
          'invalid_request',
          `revision ${r.revisionId} did not fail; only a failed generation is refunded`,
        );
      return r.refunded ? [] : [{ type: 'RevisionRefunded', data: { ...command.data } }];
    case 'RecordMeasurement':
      if (r.measurement !== 'running') return [];
      return [{ type: 'RevisionMeasured', data: { ...command.data } }];
    case 'EditRevision':
      if (r.status !== 'completed')
        throw new AppError(
          'invalid_request',
          `revision ${r.revisionId} is ${r.status}; only a completed revision can be edited`,
        );
      return [{ type: 'RevisionEdited', data: { ...command.data } }];
    default: {
      const _exhaustive: never = command;
      throw new AppError('internal_error', `unknown command ${(_exhaustive as { type: string }).type}`);
    }
  }
};
