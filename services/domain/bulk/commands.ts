import type { BulkSubmitted } from '../../../events/bulk/events.ts';
import type { Command } from '../../../core/decider.ts';

export type SubmitBulk = Command<'SubmitBulk', BulkSubmitted['data']>;
export type RecordKeywordData = Command<
  'RecordKeywordData',
  { provider: string; volumes: { keyword: string; searchVolume: number | null }[]; at: string }
>;
export type StartEntry = Command<'StartEntry', { index: number; at: string }>;
export type FinishEntry = Command<
  'FinishEntry',
  {
    index: number;
    status: 'completed' | 'error';
    cqs: number | null;
    error: string | null;
    charged: boolean;
    at: string;
  }
>;
/** `runningCharged`: whether the running entry's audit was already charged (read from its stream by the caller). */
export type CancelBulk = Command<'CancelBulk', { runningCharged: boolean; at: string }>;
export type TimeOutBulk = Command<'TimeOutBulk', { runningCharged: boolean; inactivitySeconds: number; at: string }>;

export type BulkCommand = SubmitBulk | RecordKeywordData | StartEntry | FinishEntry | CancelBulk | TimeOutBulk;
