import type { BulkEvent } from '../../../events/bulk/events.ts';

export type BulkStatus = 'queued' | 'running' | 'completed' | 'error' | 'cancelled';
export type EntryStatus = 'queued' | 'running' | 'completed' | 'error' | 'skipped';

export interface BulkEntry {
  url: string;
  keyword: string | null;
  auditId: string;
  jobId: string;
  status: EntryStatus;
  cqs: number | null;
  error: string | null;
  /** Whether the entry's credit was kept; null until it ended. */
  charged: boolean | null;
}

export interface BulkState {
  status: 'None' | BulkStatus;
  bulkId: string | null;
  project: string | null;
  webhookUrl: string | null;
  idempotencyKey: string | null;
  creditsReserved: number;
  creditsRefunded: number;
  entries: readonly BulkEntry[];
  keywordVolumes: ReadonlyMap<string, number | null> | null;
  submittedAt: string | null;
  /** The last time an entry started or ended (or the submission): what inactivity is measured from. */
  lastProgressAt: string | null;
}

export const initialState = (): BulkState => ({
  status: 'None',
  bulkId: null,
  project: null,
  webhookUrl: null,
  idempotencyKey: null,
  creditsReserved: 0,
  creditsRefunded: 0,
  entries: [],
  keywordVolumes: null,
  submittedAt: null,
  lastProgressAt: null,
});

export const isFinished = (s: BulkState): boolean =>
  s.status === 'completed' || s.status === 'error' || s.status === 'cancelled';

export const runningIndex = (s: BulkState): number | null => {
  const i = s.entries.findIndex((e) => e.status === 'running');
  return i < 0 ? null : i;
};

export const nextQueuedIndex = (s: BulkState): number | null => {
  const i = s.entries.findIndex((e) => e.status === 'queued');
  return i < 0 ? null : i;
};

const setEntry = (s: BulkState, index: number, patch: Partial<BulkEntry>): readonly BulkEntry[] =>
  s.entries.map((e, i) => (i === index ? { ...e, ...patch } : e));

export const evolve = (state: BulkState, event: BulkEvent): BulkState => {
  switch (event.type) {
    case 'BulkSubmitted': {
      const d = event.data;
      return {
        ...state,
        status: 'queued',
        bulkId: d.bulkId,
        project: d.project,
        webhookUrl: d.webhookUrl,
        idempotencyKey: d.idempotencyKey,
        creditsReserved: d.creditsReserved,
        submittedAt: d.at,
        lastProgressAt: d.at,
        entries: d.entries.map((e) => ({ ...e, status: 'queued', cqs: null, error: null, charged: null })),
      };
    }
    case 'BulkKeywordDataFetched':
      return { ...state, keywordVolumes: new Map(event.data.volumes.map((v) => [v.keyword, v.searchVolume])) };
    case 'BulkEntryStarted':
      return {
        ...state,
        status: 'running',
        lastProgressAt: event.data.at,
        entries: setEntry(state, event.data.index, { status: 'running' }),
      };
    case 'BulkEntryFinished': {
      const d = event.data;
      const refunded = state.creditsReserved > 0 && !d.charged ? 1 : 0;
      return {
        ...state,
        lastProgressAt: d.at,
        creditsRefunded: state.creditsRefunded + refunded,
        entries: setEntry(state, d.index, { status: d.status, cqs: d.cqs, error: d.error, charged: d.charged }),
      };
    }
    case 'BulkCompleted':
      return { ...state, status: 'completed' };
    case 'BulkCancelled':
    case 'BulkTimedOut': {
      const d = event.data;
      const cancelled = event.type === 'BulkCancelled';
      const entries = state.entries.map((e, i): BulkEntry => {
        if (d.skipped.includes(i)) return { ...e, status: 'skipped', charged: false };
        if (i === d.stopped) {
          const error = cancelled
            ? 'The batch was cancelled while this audit ran'
            : 'The batch was closed after inactivity while this audit ran';
          return { ...e, status: 'error', error, charged: d.stoppedCharged };
        }
        return e;
      });
      return {
        ...state,
        status: cancelled ? 'cancelled' : 'error',
        entries,
        creditsRefunded: state.creditsRefunded + d.creditsRefunded,
      };
    }
    default:
      return state;
  }
};

/** Spec 2.4 counts: every entry is in exactly one counter, so they always sum to total. */
export const countsOf = (s: BulkState) => {
  const c = { total: s.entries.length, completed: 0, failed: 0, pending: 0, skipped: 0 };
  for (const e of s.entries) {
    if (e.status === 'completed') c.completed++;
    else if (e.status === 'error') c.failed++;
    else if (e.status === 'skipped') c.skipped++;
    else c.pending++;
  }
  return c;
};

/** Credits the batch kept: entries whose audit was charged (a reserved credit not yet settled is not counted). */
export const creditsChargedOf = (s: BulkState): number =>
  s.creditsReserved === 0 ? 0 : s.entries.filter((e) => e.charged === true).length;
