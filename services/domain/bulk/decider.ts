import type { BulkEvent } from '../../../events/bulk/events.ts';
import type { Decider } from '../../../core/decider.ts';
import type { BulkCommand } from './commands.ts';
import { decide } from './decide.ts';
import { evolve, initialState, type BulkState } from './state.ts';

/** The bulk stream's decider: one batch of URLs, entry by entry. */
export const bulkDecider: Decider<BulkCommand, BulkEvent, BulkState> = { decide, evolve, initialState };

export type { BulkCommand } from './commands.ts';
export {
  countsOf,
  creditsChargedOf,
  isFinished,
  nextQueuedIndex,
  runningIndex,
  type BulkEntry,
  type BulkState,
  type BulkStatus,
  type EntryStatus,
} from './state.ts';
