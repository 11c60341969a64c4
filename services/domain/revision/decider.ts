import type { RevisionEvent } from '../../../events/revision/events.ts';
import type { Decider } from '../../../core/decider.ts';
import type { RevisionCommand } from './commands.ts';
import { decide } from './decide.ts';
import { evolve, initialState, type RevisionsState } from './state.ts';

/** The revision stream's decider: the apply generations of one audit. */
export const revisionDecider: Decider<RevisionCommand, RevisionEvent, RevisionsState> = {
  decide,
  evolve,
  initialState,
};

export type { RevisionCommand } from './commands.ts';
export { planRequest, selectionKeyOf, type Plan } from './decide.ts';
export { revisionOf, type RevisionEntry, type RevisionsState, type RevisionStatus } from './state.ts';
