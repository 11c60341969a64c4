import type { RevisionEvent } from '../../../events/revision/events.ts';

export type RevisionStatus = 'generating' | 'completed' | 'failed';

export interface RevisionEntry {
  revisionId: string;
  selectedIds: readonly string[];
  selectionKey: string;
  status: RevisionStatus;
  charged: boolean;
  chargeId: string | null;
  refunded: boolean;
  error: string | null;
  resultRef: string | null;
  cqsBefore: number | null;
  measurement: 'none' | 'running' | 'completed' | 'error';
  cqsAfter: number | null;
  editedMarkdownRef: string | null;
  /** Position among the audit's revisions (0 first). */
  seq: number;
}

/** Every revision of one audit, in request order. */
export interface RevisionsState {
  revisions: readonly RevisionEntry[];
}

export const initialState = (): RevisionsState => ({ revisions: [] });

const update = (s: RevisionsState, revisionId: string, f: (r: RevisionEntry) => RevisionEntry): RevisionsState => ({
  revisions: s.revisions.map((r) => (r.revisionId === revisionId ? f(r) : r)),
});

export const evolve = (state: RevisionsState, event: RevisionEvent): RevisionsState => {
  switch (event.type) {
    case 'RevisionRequested': {
      const { revisionId, selectedIds, selectionKey } = event.data;
      if (state.revisions.some((r) => r.revisionId === revisionId)) return state;
      return {
        revisions: [
          ...state.revisions,
          {
            revisionId,
            selectedIds,
            selectionKey,
            status: 'generating',
            charged: false,
            chargeId: null,
            refunded: false,
            error: null,
            resultRef: null,
            cqsBefore: null,
            measurement: 'none',
            cqsAfter: null,
            editedMarkdownRef: null,
            seq: state.revisions.length,
          },
        ],
      };
    }
    case 'RevisionCharged':
      return update(state, event.data.revisionId, (r) => ({ ...r, charged: true, chargeId: event.data.chargeId }));
    case 'RevisionGenerated':
      return update(state, event.data.revisionId, (r) =>
        r.status !== 'generating'
          ? r
          : {
              ...r,
              status: 'completed',
              resultRef: event.data.resultRef,
              cqsBefore: event.data.cqsBefore,
              measurement: 'running',
            },
      );
    case 'RevisionFailed':
      return update(state, event.data.revisionId, (r) =>
        r.status !== 'generating' ? r : { ...r, status: 'failed', error: event.data.error },
      );
    case 'RevisionRefunded':
      return update(state, event.data.revisionId, (r) => ({ ...r, refunded: true }));
    case 'RevisionMeasured':
      return update(state, event.data.revisionId, (r) => ({
        ...r,
        measurement: event.data.status,
        cqsAfter: event.data.cqsAfter,
      }));
    case 'RevisionEdited':
      return update(state, event.data.revisionId, (r) => ({ ...r, editedMarkdownRef: event.data.markdownRef }));
    default:
      return state;
  }
};

export const revisionOf = (s: RevisionsState, revisionId: string): RevisionEntry | undefined =>
  s.revisions.find((r) => r.revisionId === revisionId);
