import {
  BulkCancelled,
  BulkCompleted,
  BulkEntryFinished,
  BulkEntryStarted,
  BulkKeywordDataFetched,
  BulkSubmitted,
  BulkTimedOut,
  type BulkEvent,
} from '../../../events/bulk/events.ts';
import { AppError } from '../../../core/errors.ts';
import type { BulkCommand } from './commands.ts';
import { isFinished, runningIndex, type BulkState } from './state.ts';

/**
 * One batch's rules. Entries run one after another (spec 4.4 rule 4): an entry starts only when
 * none runs. Repeats are no-ops (a retried step decides nothing new); a finished batch ignores
 * late steps, refuses a cancel (409 already_finished) and never times out.
 */
export const decide = (command: BulkCommand, state: BulkState): BulkEvent[] => {
  if (command.type === 'SubmitBulk') return state.status === 'None' ? [BulkSubmitted(command.data)] : [];
  if (state.status === 'None') throw new AppError('not_found', 'Bulk request not found');
  switch (command.type) {
    case 'RecordKeywordData':
      return isFinished(state) || state.keywordVolumes ? [] : [BulkKeywordDataFetched(command.data)];
    case 'StartEntry': {
      const entry = state.entries[command.data.index];
      if (isFinished(state) || !entry || entry.status !== 'queued') return [];
      const running = runningIndex(state);
      if (running !== null)
        throw new AppError('internal_error', `entry ${running} of ${state.bulkId} is still running`);
      return [BulkEntryStarted(command.data)];
    }
    case 'FinishEntry': {
      const d = command.data;
      if (state.entries[d.index]?.status !== 'running') return [];
      const events: BulkEvent[] = [BulkEntryFinished(d)];
      const left = state.entries.some((e, i) => i !== d.index && (e.status === 'queued' || e.status === 'running'));
      if (!left) events.push(BulkCompleted({ at: d.at }));
      return events;
    }
    case 'CancelBulk':
      if (isFinished(state))
        throw new AppError('already_finished', `Bulk request ${state.bulkId} already finished (${state.status})`);
      return [BulkCancelled(close(state, command.data.runningCharged, command.data.at))];
    case 'TimeOutBulk': {
      if (isFinished(state)) return [];
      const idleSince = Date.parse(state.lastProgressAt!);
      if (Date.parse(command.data.at) < idleSince + command.data.inactivitySeconds * 1000) return [];
      return [BulkTimedOut(close(state, command.data.runningCharged, command.data.at))];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};

/** Entries that never started are skipped and their reserved credits refunded; the running one stops. */
const close = (state: BulkState, runningCharged: boolean, at: string) => {
  const skipped = state.entries.flatMap((e, i) => (e.status === 'queued' ? [i] : []));
  const stopped = runningIndex(state);
  const stoppedCharged = stopped !== null && runningCharged;
  const reserved = state.creditsReserved > 0;
  const creditsRefunded = reserved ? skipped.length + (stopped !== null && !stoppedCharged ? 1 : 0) : 0;
  return { skipped, stopped, stoppedCharged, creditsRefunded, at };
};
