import t from 'tap';
import {
  AccountOpened,
  ApiKeyIssued,
  CreditCharged,
  CreditRefunded,
  CreditsAdjusted,
  CreditsPurchased,
  UnlimitedSet,
  accountStreamId,
} from '../../../events/account/index.ts';
import { AuditAdmitted, AuditReleased } from '../../../events/account/admission.ts';
import { ApplyAdmitted, ApplyReleased } from '../../../events/account/applyAdmission.ts';
import { BulkClosed, BulkOpened } from '../../../events/account/bulk.ts';
import { ledgerProjection } from '../../../projections/ledger/projection.ts';
import { testDatabase } from '../../helpers/db.ts';
import { projectionSpec } from '../../helpers/projectionSpec.ts';

/** The ledger read model folded from account events alone (no subscription): projections/ledger/projection.ts. */
const { pool } = await testDatabase(t, 4);
const at = (accountId: string) => ({ accountId, streamId: accountStreamId(accountId) });
const A = at('acc_a');
const B = at('acc_b');

const opened = (accountId: string, unlimited = false) =>
  AccountOpened({ accountId, email: 'enc:v1:c2VhbGVk', role: 'user', unlimited, webhookSecret: 'vault:whs_abcdefgh' });
const purchased = (paymentId: string, credits: number) => CreditsPurchased({ paymentId, credits });
const charged = (auditId: string, url: string | null = null, project: string | null = null) =>
  CreditCharged({
    chargeId: `chg_audit_${auditId}`,
    kind: 'audit',
    subjectId: auditId,
    credits: 1,
    jobId: null,
    url,
    project,
  });
const refunded = (auditId: string) =>
  CreditRefunded({ chargeId: `chg_audit_${auditId}`, credits: 1, reason: 'never started' });
const adjusted = (adjustmentId: string, delta: number) =>
  CreditsAdjusted({ adjustmentId, delta, actor: 'ops@example.com', reason: 'correction' });

const ACCOUNTS =
  'SELECT account_id, remaining, used, unlimited, entries, stream_version FROM ledger_accounts ORDER BY account_id';
const ENTRIES = `SELECT account_id, seq, type, id, delta, refunded, url, project, charge_id, (created_at AT TIME ZONE 'UTC')::text AS created_at
                 FROM ledger_entries ORDER BY account_id, seq`;
/** The table-level promise: the entries' deltas sum to the balance, for every account. */
const SUMS = `SELECT a.account_id, a.remaining, coalesce(sum(e.delta), 0)::int AS sum_of_deltas
              FROM ledger_accounts a LEFT JOIN ledger_entries e USING (account_id) GROUP BY a.account_id, a.remaining ORDER BY a.account_id`;

const movements = [
  [opened('acc_a'), A],
  [purchased('pay_1', 10), A],
  [charged('aud_1', 'https://example.com/a', 'blog'), A],
  [charged('aud_2'), A],
  [adjusted('adj_1', 5), A],
  [adjusted('adj_2', -3), A],
] as const;

t.test('purchase, charges and adjustments: one entry each, balance and usage follow', async (t) => {
  const spec = projectionSpec(pool, ledgerProjection).given(movements);
  await spec.then(
    t,
    ACCOUNTS,
    [{ account_id: 'acc_a', remaining: 10, used: 2, unlimited: false, entries: 5, stream_version: 6 }],
    'balance',
  );
  await spec.then(
    t,
    ENTRIES,
    [
      {
        account_id: 'acc_a',
        seq: 2,
        type: 'purchase',
        id: 'pay_1',
        delta: 10,
        refunded: false,
        url: null,
        project: null,
        charge_id: null,
        created_at: '2026-01-01 00:00:01',
      },
      {
        account_id: 'acc_a',
        seq: 3,
        type: 'audit',
        id: 'aud_1',
        delta: -1,
        refunded: false,
        url: 'https://example.com/a',
        project: 'blog',
        charge_id: 'chg_audit_aud_1',
        created_at: '2026-01-01 00:00:02',
      },
      {
        account_id: 'acc_a',
        seq: 4,
        type: 'audit',
        id: 'aud_2',
        delta: -1,
        refunded: false,
        url: null,
        project: null,
        charge_id: 'chg_audit_aud_2',
        created_at: '2026-01-01 00:00:03',
      },
      {
        account_id: 'acc_a',
        seq: 5,
        type: 'adjustment',
        id: 'adj_1',
        delta: 5,
        refunded: false,
        url: null,
        project: null,
        charge_id: null,
        created_at: '2026-01-01 00:00:04',
      },
      {
        account_id: 'acc_a',
        seq: 6,
        type: 'adjustment',
        id: 'adj_2',
        delta: -3,
        refunded: false,
        url: null,
        project: null,
        charge_id: null,
        created_at: '2026-01-01 00:00:05',
      },
    ],
    'entries in stream order',
  );
  await spec.then(t, SUMS, [{ account_id: 'acc_a', remaining: 10, sum_of_deltas: 10 }], 'deltas sum to the balance');
});

t.test('an apply charge is an entry of kind apply', async (t) => {
  await projectionSpec(pool, ledgerProjection)
    .given([
      [opened('acc_a'), A],
      [purchased('pay_1', 2), A],
      [
        CreditCharged({
          chargeId: 'chg_apply_rev_1',
          kind: 'apply',
          subjectId: 'rev_1',
          credits: 1,
          jobId: null,
          url: 'https://example.com/p',
          project: null,
        }),
        A,
      ],
    ])
    .then(t, 'SELECT type, id, delta, charge_id FROM ledger_entries ORDER BY seq', [
      { type: 'purchase', id: 'pay_1', delta: 2, charge_id: null },
      { type: 'apply', id: 'rev_1', delta: -1, charge_id: 'chg_apply_rev_1' },
    ]);
});

t.test(
  'a refund turns its charge into refunded with delta 0 and gives the credit back; no entry of its own',
  async (t) => {
    const spec = projectionSpec(pool, ledgerProjection).given([...movements, [refunded('aud_1'), A]]);
    await spec.then(
      t,
      ACCOUNTS,
      [{ account_id: 'acc_a', remaining: 11, used: 1, unlimited: false, entries: 5, stream_version: 7 }],
      'balance',
    );
    await spec.then(
      t,
      'SELECT seq, id, delta, refunded FROM ledger_entries ORDER BY seq',
      [
        { seq: 2, id: 'pay_1', delta: 10, refunded: false },
        { seq: 3, id: 'aud_1', delta: 0, refunded: true },
        { seq: 4, id: 'aud_2', delta: -1, refunded: false },
        { seq: 5, id: 'adj_1', delta: 5, refunded: false },
        { seq: 6, id: 'adj_2', delta: -3, refunded: false },
      ],
      'entries',
    );
    await spec.then(t, SUMS, [{ account_id: 'acc_a', remaining: 11, sum_of_deltas: 11 }], 'deltas sum to the balance');
  },
);

t.test('a second refund of the same charge, or a refund of an unknown charge, gives nothing back', async (t) => {
  await projectionSpec(pool, ledgerProjection)
    .given([...movements, [refunded('aud_1'), A], [refunded('aud_1'), A], [refunded('aud_9'), A]])
    .then(t, ACCOUNTS, [
      { account_id: 'acc_a', remaining: 11, used: 1, unlimited: false, entries: 5, stream_version: 9 },
    ]);
});

t.test('unlimited: opened unlimited, then limited, then unlimited again', async (t) => {
  const given = [
    [opened('acc_a', true), A],
    [UnlimitedSet({ unlimited: false, actor: 'ops', reason: 'trial over' }), A],
  ] as const;
  await projectionSpec(pool, ledgerProjection)
    .given([[opened('acc_a', true), A]])
    .then(
      t,
      ACCOUNTS,
      [{ account_id: 'acc_a', remaining: 0, used: 0, unlimited: true, entries: 0, stream_version: 1 }],
      'opened unlimited',
    );
  await projectionSpec(pool, ledgerProjection)
    .given(given)
    .then(
      t,
      ACCOUNTS,
      [{ account_id: 'acc_a', remaining: 0, used: 0, unlimited: false, entries: 0, stream_version: 2 }],
      'limited',
    );
  await projectionSpec(pool, ledgerProjection)
    .given([...given, [UnlimitedSet({ unlimited: true, actor: 'ops', reason: 'partner' }), A]])
    .then(
      t,
      ACCOUNTS,
      [{ account_id: 'acc_a', remaining: 0, used: 0, unlimited: true, entries: 0, stream_version: 3 }],
      'unlimited again',
    );
});

t.test('events that move no credit advance the stream version and nothing else (issue 9: ledger verify)', async (t) => {
  t.ok(
    ledgerProjection.canHandle.includes('AuditAdmitted') && ledgerProjection.canHandle.includes('AuditReleased'),
    'admission events handled',
  );
  const spec = projectionSpec(pool, ledgerProjection).given([
    [opened('acc_a'), A],
    [purchased('pay_1', 3), A],
    [ApiKeyIssued({ keyId: 'key_1', keyHash: 'a'.repeat(64), keyPrefix: 'ak_live_ab', scopes: ['audits:read'] }), A],
    [AuditAdmitted({ auditId: 'aud_1' }), A],
    [charged('aud_1'), A],
    [AuditReleased({ auditId: 'aud_1' }), A],
    [ApplyAdmitted({ revisionId: 'rev_1' }), A],
    [ApplyReleased({ revisionId: 'rev_1' }), A],
    [BulkOpened({ bulkId: 'blk_1' }), A],
    [BulkClosed({ bulkId: 'blk_1' }), A],
  ]);
  await spec.then(
    t,
    ACCOUNTS,
    [{ account_id: 'acc_a', remaining: 2, used: 1, unlimited: false, entries: 2, stream_version: 10 }],
    'last version reached',
  );
  await spec.then(
    t,
    'SELECT seq, type FROM ledger_entries ORDER BY seq',
    [
      { seq: 2, type: 'purchase' },
      { seq: 5, type: 'audit' },
    ],
    'entries only for movements',
  );
});

t.test(
  'a redelivery of every event changes nothing; one batch or one event at a time gives the same rows',
  async (t) => {
    const all = [...movements, [refunded('aud_2'), A], [AuditAdmitted({ auditId: 'aud_3' }), A]] as const;
    const expected = [{ account_id: 'acc_a', remaining: 11, used: 1, unlimited: false, entries: 5, stream_version: 8 }];
    await projectionSpec(pool, ledgerProjection)
      .given(all)
      .thenAgain(t, ACCOUNTS, expected, 'balance after a redelivery');
    await projectionSpec(pool, ledgerProjection)
      .given(all, { inOneBatch: true })
      .thenAgain(t, ACCOUNTS, expected, 'balance after a redelivery, one batch');
    await projectionSpec(pool, ledgerProjection)
      .given(all)
      .thenAgain(t, 'SELECT count(*)::int AS n FROM ledger_entries', [{ n: 5 }], 'no entry twice');
  },
);

t.test('accounts are folded apart', async (t) => {
  await projectionSpec(pool, ledgerProjection)
    .given([
      [opened('acc_a'), A],
      [opened('acc_b'), B],
      [purchased('pay_1', 4), A],
      [purchased('pay_2', 7), B],
      [charged('aud_1'), B],
    ])
    .then(t, ACCOUNTS, [
      { account_id: 'acc_a', remaining: 4, used: 0, unlimited: false, entries: 1, stream_version: 2 },
      { account_id: 'acc_b', remaining: 6, used: 1, unlimited: false, entries: 2, stream_version: 3 },
    ]);
});
