import t from 'tap';
import { formatPosition, START } from '../../../events/envelope.ts';
import { readLog } from '../../../infra/eventStore/readLog.ts';
import { admin } from '../../helpers/adminCli.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { appendRandomAccounts } from '../../helpers/randomLedger.ts';

t.test('events export from the store: filters, formats, positions', async (t) => {
  const db = await testDatabase(t);
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: db.url };
  delete env.KAFKA_BROKERS;
  const ids = await appendRandomAccounts(db.pool, { accounts: 5, steps: 10, seed: 3, prefix: 'exp' });
  // The log shows a transaction once every older one has ended, cluster-wide (other test files'
  // databases share the server): wait until it shows all that was written.
  const stored = Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
  let log = await readLog(db.pool, { after: START, limit: 100_000 });
  await eventually(
    async () => (log = await readLog(db.pool, { after: START, limit: 100_000 })).length === stored,
    60_000,
    'the log shows every stored event',
  );

  const all = await admin(env, 'events', 'export', '--progress');
  t.equal(all.code, 0, JSON.stringify(all.stderr));
  const lines = all.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.same(
    lines.map((l) => l.id),
    log.map((e) => e.id),
    'every event, in commit order',
  );
  t.match(String(all.stderr), new RegExp(`${log.length}/${log.length} read`), 'a progress bar on stderr when asked');

  const mid = log[Math.floor(log.length / 2)]!;
  const after = await admin(
    env,
    'events',
    'export',
    '--from',
    formatPosition(mid.position),
    '--type',
    'CreditCharged,CreditsPurchased',
    '--account',
    ids[1]!,
  );
  const expected = log.filter(
    (e, i) => i > log.indexOf(mid) && ['CreditCharged', 'CreditsPurchased'].includes(e.type) && e.accountId === ids[1],
  );
  t.same(
    after.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).id),
    expected.map((e) => e.id),
    'from a position (exclusive), by type and account',
  );

  const csv = await admin(env, 'events', 'export', '--format', 'csv', '--type', 'CreditsAdjusted');
  const rows = csv.stdout.trim().split('\n');
  t.equal(
    rows[0],
    'position,id,type,version,accountId,streamId,streamVersion,occurredAt,causationId,correlationId,prevHash,payload',
  );
  t.equal(rows.length - 1, log.filter((e) => e.type === 'CreditsAdjusted').length, 'one CSV row per event');

  const future = await admin(env, 'events', 'export', '--from', '2999-01-01T00:00:00Z');
  t.equal(future.stdout, '', 'nothing after a future time');
  const bad = await admin(env, 'events', 'export', '--type', 'NoSuchEvent');
  t.equal(bad.code, 1);
  t.match(bad.stderr.error, { code: 'invalid_request', message: /unknown event type "NoSuchEvent"/ });
});
