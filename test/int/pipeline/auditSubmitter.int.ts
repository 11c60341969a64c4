import t from 'tap';
import { AppError } from '../../../core/errors.ts';
import { createAccount } from '../../../services/admin/operations.ts';
import { createAuditSubmitter } from '../../../services/pipeline/auditSubmitter.ts';
import {
  submitAuditsInTransaction,
  toSubmission,
  type SubmitAuditCommand,
} from '../../../services/pipeline/submitAudit.ts';
import { transact } from '../../../infra/eventStore/eventStore.ts';
import { testDatabase } from '../../helpers/db.ts';
import { auditRequest } from '../../helpers/pipelineService.ts';

const request = auditRequest({
  content: 'Hub gears and good lights make a city bicycle fit for daily riding in all weather. '.repeat(4),
  keyword: 'city bicycle',
});

const command = (accountId: string, over: Partial<SubmitAuditCommand> = {}): SubmitAuditCommand => ({
  accountId,
  source: 'api',
  request,
  idempotencyKey: null,
  bulkId: null,
  now: new Date(),
  correlationId: null,
  ...over,
});

const codeOf = (r: PromiseSettledResult<unknown>) =>
  r.status === 'fulfilled' ? 'accepted' : r.reason instanceof AppError ? r.reason.code : String(r.reason);

/**
 * Submissions that arrive together are decided in shared transactions (services/pipeline/
 * auditSubmitter.ts). Each rule must hold as if they had come one by one.
 */
t.test('concurrent submissions share transactions and every admission rule still holds', async (t) => {
  const { pool } = await testDatabase(t);
  const funded = await Promise.all(
    Array.from({ length: 12 }, (_, i) => createAccount(pool, { email: `f${i}@example.com`, credits: 5 })),
  );
  const broke = await createAccount(pool, { email: 'broke@example.com', credits: 0 });
  const unlimited = await createAccount(pool, { email: 'u@example.com', credits: 0, unlimited: true });
  const submit = createAuditSubmitter(pool);
  // Five per funded account (three may be in flight), interleaved so one batch holds several of each.
  const cmds = [
    ...Array.from({ length: 5 }, () => funded.map((a) => command(a.accountId))).flat(),
    command(broke.accountId),
    ...Array.from({ length: 3 }, () => command(unlimited.accountId)),
  ];
  const results = await Promise.allSettled(cmds.map((c) => submit(c)));
  const byAccount = new Map<string, string[]>();
  results.forEach((r, i) =>
    byAccount.set(cmds[i]!.accountId, [...(byAccount.get(cmds[i]!.accountId) ?? []), codeOf(r)]),
  );
  for (const a of funded)
    t.same(
      byAccount.get(a.accountId)!.sort(),
      ['accepted', 'accepted', 'accepted', 'rate_limited', 'rate_limited'],
      'three in flight, then 429',
    );
  t.same(byAccount.get(broke.accountId), ['insufficient_credits'], 'no credit: 402');
  t.same(byAccount.get(unlimited.accountId), ['accepted', 'accepted', 'accepted'], 'unlimited: no credit needed');

  const counts = await pool.query<{ account_id: string; admitted: number; requested: number; rows: number }>(
    `SELECT e.account_id,
            count(*) FILTER (WHERE type = 'AuditAdmitted')::int AS admitted,
            count(*) FILTER (WHERE type = 'AuditRequested')::int AS requested,
            (SELECT count(*)::int FROM audits a WHERE a.account_id = e.account_id) AS rows
       FROM events e GROUP BY e.account_id`,
  );
  for (const a of [...funded, unlimited]) {
    const c = counts.rows.find((r) => r.account_id === a.accountId)!;
    t.same([c.admitted, c.requested, c.rows], [3, 3, 3], 'the log and the read model hold what was accepted');
  }
  const shared = await pool.query<{ n: number }>(
    `SELECT max(n)::int AS n FROM (SELECT count(*) AS n FROM events WHERE type = 'AuditRequested' GROUP BY tx_id) x`,
  );
  t.ok(shared.rows[0]!.n > 1, `one transaction accepted ${shared.rows[0]!.n} submissions`);
  const blobs = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM content_blobs');
  t.equal(blobs.rows[0]!.n, 1, 'one body, stored once');
});

t.test('one Idempotency-Key submitted many times at once: one audit, the others replay it', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'k@example.com', credits: 5 });
  const submit = createAuditSubmitter(pool);
  // Within the three in flight, so no submission is refused and each either creates or replays.
  const results = await Promise.all(
    ['other', 'same', 'same', 'same', 'same', 'same'].map((key) =>
      submit(command(a.accountId, { idempotencyKey: key })),
    ),
  );
  const same = results.slice(1);
  t.equal(new Set(same.map((r) => r.auditId)).size, 1, 'one audit for the key');
  t.equal(same.filter((r) => !r.replay).length, 1, 'created once; the rest are replays');
  const requested = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE type = 'AuditRequested' AND account_id = $1`,
    [a.accountId],
  );
  t.equal(requested.rows[0]!.n, 2, 'one request per key');
});

t.test('a submission that fails its transaction fails alone', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'p@example.com', credits: 5 });
  const b = await createAccount(pool, { email: 'q@example.com', credits: 5 });
  const submit = createAuditSubmitter(pool);
  // An event its schema refuses (a source the catalogue does not know) throws inside the append:
  // not a refusal of one command but a failure of the statement that holds them all.
  const poison = command(a.accountId, { source: 'elsewhere' as 'api' });
  const results = await Promise.allSettled([
    submit(command(a.accountId)),
    submit(command(b.accountId)),
    submit(poison),
    submit(command(b.accountId)),
    submit(command(a.accountId)),
  ]);
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
  );
  t.match(String((results[2] as PromiseRejectedResult).reason), /does not match its schema/);
  const rows = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audits');
  t.equal(rows.rows[0]!.n, 4, 'the others were accepted');
  const admitted = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE type = 'AuditAdmitted'`,
  );
  t.equal(admitted.rows[0]!.n, 4, 'each admitted once, though their shared transaction was tried twice');
});

t.test('a retry of submissions whose commit did land finds their audits and makes nothing new', async (t) => {
  const { pool } = await testDatabase(t);
  const a = await createAccount(pool, { email: 'r@example.com', credits: 5 });
  const subs = [toSubmission(command(a.accountId)), toSubmission(command(a.accountId))];
  const first = await transact(pool, (tx) => submitAuditsInTransaction(tx, subs, { firstAttempt: true }));
  // What transact() does when the COMMIT's answer is lost: the same submissions, in a new transaction.
  const again = await transact(pool, (tx) => submitAuditsInTransaction(tx, subs));
  const values = (outcomes: typeof first) => outcomes.map((o) => (o.ok ? o.value : null));
  t.same(values(again), values(first), 'the same audits, answered as created (not replays)');
  t.same(
    values(again).map((v) => v?.replay),
    [false, false],
  );
  const events = await pool.query<{ type: string; n: number }>(
    `SELECT type, count(*)::int AS n FROM events WHERE type IN ('AuditAdmitted', 'AuditRequested') GROUP BY type ORDER BY type`,
  );
  t.same(events.rows, [
    { type: 'AuditAdmitted', n: 2 },
    { type: 'AuditRequested', n: 2 },
  ]);
});
