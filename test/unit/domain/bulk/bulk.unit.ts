import t from 'tap';
import type { AccountBulkEvent } from '../../../../events/account/bulk.ts';
import type { AccountEvent } from '../../../../events/account/index.ts';
import type { BulkEvent } from '../../../../events/bulk/events.ts';
import { chargeIdFor } from '../../../../services/domain/account/decider.ts';
import { accountDecider } from '../../../../services/domain/account/decider.ts';
import { bulkDecider, countsOf } from '../../../../services/domain/bulk/decider.ts';
import { fold } from '../../../../core/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import { opened, purchased } from '../account/fixtures/account.ts';

const T0 = '2026-11-23T10:00:00.000Z';
const T1 = '2026-11-23T10:01:00.000Z';
const entry = (i: number) => ({
  url: `https://example.com/${i}`,
  keyword: null,
  auditId: `aud_${i}`,
  jobId: `job_${i}`,
});
const submitted = (n: number, creditsReserved = n): BulkEvent => ({
  type: 'BulkSubmitted',
  data: {
    bulkId: 'bulk_1',
    project: null,
    webhookUrl: null,
    idempotencyKey: null,
    creditsReserved,
    entries: Array.from({ length: n }, (_, i) => entry(i)),
    at: T0,
  },
});
const started = (index: number, at = T0): BulkEvent => ({ type: 'BulkEntryStarted', data: { index, at } });
const finished = (index: number, status: 'completed' | 'error', charged: boolean, at = T0): BulkEvent => ({
  type: 'BulkEntryFinished',
  data: {
    index,
    status,
    cqs: status === 'completed' ? 70 : null,
    error: status === 'error' ? 'crawl_failed: 404' : null,
    charged,
    at,
  },
});
const b = spec(bulkDecider);

t.test('bulk stream: entries one after another', async (t) => {
  t.test(
    'the first entry starts',
    b
      .given([submitted(3)])
      .when({ type: 'StartEntry', data: { index: 0, at: T1 } })
      .then([started(0, T1)]),
  );
  t.test(
    'starting it again is a no-op',
    b
      .given([submitted(3), started(0)])
      .when({ type: 'StartEntry', data: { index: 0, at: T1 } })
      .then([]),
  );
  t.test(
    'a second entry cannot start while one runs',
    b
      .given([submitted(3), started(0)])
      .when({ type: 'StartEntry', data: { index: 1, at: T1 } })
      .thenThrows('internal_error'),
  );
  t.test(
    'the last entry finishing completes the batch',
    b
      .given([submitted(2), started(0), finished(0, 'completed', true), started(1)])
      .when({ type: 'FinishEntry', data: { index: 1, status: 'error', cqs: null, error: 'x', charged: false, at: T1 } })
      .then([
        {
          type: 'BulkEntryFinished',
          data: { index: 1, status: 'error', cqs: null, error: 'x', charged: false, at: T1 },
        },
        { type: 'BulkCompleted', data: { at: T1 } },
      ]),
  );
  t.test(
    'finishing an entry twice is a no-op',
    b
      .given([submitted(2), started(0), finished(0, 'completed', true)])
      .when({
        type: 'FinishEntry',
        data: { index: 0, status: 'completed', cqs: 1, error: null, charged: true, at: T1 },
      })
      .then([]),
  );
});

t.test('bulk stream: cancel', async (t) => {
  const mid = [submitted(4), started(0), finished(0, 'completed', true), started(1)];
  t.test(
    'skips the entries that never started and stops the running one, refunding it when not charged',
    b
      .given(mid)
      .when({ type: 'CancelBulk', data: { runningCharged: false, at: T1 } })
      .then([
        {
          type: 'BulkCancelled',
          data: { skipped: [2, 3], stopped: 1, stoppedCharged: false, creditsRefunded: 3, at: T1 },
        },
      ]),
  );
  t.test(
    "keeps the running entry's credit when its audit was charged",
    b
      .given(mid)
      .when({ type: 'CancelBulk', data: { runningCharged: true, at: T1 } })
      .then([
        {
          type: 'BulkCancelled',
          data: { skipped: [2, 3], stopped: 1, stoppedCharged: true, creditsRefunded: 2, at: T1 },
        },
      ]),
  );
  t.test(
    'an unlimited account gets nothing back (nothing was reserved)',
    b
      .given([submitted(2, 0), started(0)])
      .when({ type: 'CancelBulk', data: { runningCharged: false, at: T1 } })
      .then([
        {
          type: 'BulkCancelled',
          data: { skipped: [1], stopped: 0, stoppedCharged: false, creditsRefunded: 0, at: T1 },
        },
      ]),
  );
  t.test(
    '409 already_finished once cancelled',
    b
      .given([
        ...mid,
        {
          type: 'BulkCancelled',
          data: { skipped: [2, 3], stopped: 1, stoppedCharged: false, creditsRefunded: 3, at: T1 },
        },
      ])
      .when({ type: 'CancelBulk', data: { runningCharged: false, at: T1 } })
      .thenThrows('already_finished'),
  );
  t.test(
    '409 already_finished once completed',
    b
      .given([submitted(1), started(0), finished(0, 'completed', true), { type: 'BulkCompleted', data: { at: T0 } }])
      .when({ type: 'CancelBulk', data: { runningCharged: false, at: T1 } })
      .thenThrows('already_finished'),
  );
  t.test('counts after a cancel sum to total', async (t) => {
    const s = fold(bulkDecider, [
      ...mid,
      {
        type: 'BulkCancelled',
        data: { skipped: [2, 3], stopped: 1, stoppedCharged: false, creditsRefunded: 3, at: T1 },
      },
    ]);
    t.same(countsOf(s), { total: 4, completed: 1, failed: 1, pending: 0, skipped: 2 });
    t.equal(s.status, 'cancelled');
  });
});

t.test('bulk stream: inactivity', async (t) => {
  const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
  t.test(
    'not due before the period since the last progress',
    b
      .given([submitted(2), started(0, at(10))])
      .when({ type: 'TimeOutBulk', data: { runningCharged: false, inactivitySeconds: 900, at: at(909) } })
      .then([]),
  );
  t.test(
    'due after it: the batch closes as error, never-started entries refunded',
    b
      .given([submitted(2), started(0, at(10))])
      .when({ type: 'TimeOutBulk', data: { runningCharged: false, inactivitySeconds: 900, at: at(910) } })
      .then([
        {
          type: 'BulkTimedOut',
          data: { skipped: [1], stopped: 0, stoppedCharged: false, creditsRefunded: 2, at: at(910) },
        },
      ]),
  );
  t.test(
    'emitted once: a second firing is a no-op',
    b
      .given([
        submitted(1),
        {
          type: 'BulkTimedOut',
          data: { skipped: [0], stopped: null, stoppedCharged: false, creditsRefunded: 1, at: at(900) },
        },
      ])
      .when({ type: 'TimeOutBulk', data: { runningCharged: false, inactivitySeconds: 900, at: at(2000) } })
      .then([]),
  );
  t.test(
    'a completed batch never times out',
    b
      .given([submitted(1), started(0), finished(0, 'completed', true), { type: 'BulkCompleted', data: { at: T0 } }])
      .when({ type: 'TimeOutBulk', data: { runningCharged: false, inactivitySeconds: 1, at: at(5000) } })
      .then([]),
  );
});

type A = AccountBulkEvent | AccountEvent;
const a = spec(accountDecider);
const open = (bulkId: string, n: number) => ({
  type: 'OpenBulk' as const,
  data: {
    bulkId,
    entries: Array.from({ length: n }, (_, i) => ({ ...entry(i), auditId: `aud_${bulkId}_${i}` })),
    project: null,
  },
});

t.test('account stream: one batch at a time, its credits reserved', async (t) => {
  t.test(
    '402 when the balance cannot cover every entry',
    a
      .given([opened(), purchased(2)] as A[])
      .when(open('bulk_1', 3))
      .thenThrows('insufficient_credits', /needs 3, the balance is 2/),
  );
  t.test('opens and charges one credit per entry', async (t) => {
    const events = accountDecider.decide(open('bulk_1', 2), fold(accountDecider, [opened(), purchased(2)] as A[]));
    t.same(
      events.map((e) => e.type),
      ['BulkOpened', 'CreditCharged', 'CreditCharged'],
    );
    t.same(
      events.slice(1).map((e) => (e.data as { chargeId: string }).chargeId),
      [chargeIdFor('audit', 'aud_bulk_1_0'), chargeIdFor('audit', 'aud_bulk_1_1')],
    );
  });
  t.test(
    '409 bulk_in_progress while another is open',
    a
      .given([opened(), purchased(9), { type: 'BulkOpened', data: { bulkId: 'bulk_1' } }] as A[])
      .when(open('bulk_2', 1))
      .thenThrows('bulk_in_progress'),
  );
  t.test('a new batch once the first closed', async (t) => {
    const s = fold(accountDecider, [
      opened(),
      purchased(9),
      { type: 'BulkOpened', data: { bulkId: 'bulk_1' } },
      { type: 'BulkClosed', data: { bulkId: 'bulk_1' } },
    ] as A[]);
    t.equal(accountDecider.decide(open('bulk_2', 1), s)[0]!.type, 'BulkOpened');
  });
  t.test('an unlimited account reserves nothing', async (t) => {
    const events = accountDecider.decide(open('bulk_1', 3), fold(accountDecider, [opened({ unlimited: true })] as A[]));
    t.same(
      events.map((e) => e.type),
      ['BulkOpened'],
    );
  });
});
