import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { comparePositions, formatPosition, START, type EventEnvelope } from '../../../events/envelope.ts';
import { repoRoot } from '../../../infra/local/kafkaJars.ts';
import { readLog } from '../../../infra/eventStore/readLog.ts';
import { createKafka, eventsTopic } from '../../../infra/kafka/client.ts';
import { encodeEvent } from '../../../infra/kafka/codec.ts';
import { createLogger } from '../../../infra/logger.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { loadCheckpoint } from '../../../infra/subscriptions/checkpoints.ts';
import { RELAY_GROUP } from '../../../services/relay/relay.ts';
import { admin } from '../../helpers/adminCli.ts';
import { eventually, testDatabase } from '../../helpers/db.ts';
import { appendRandomAccounts } from '../../helpers/randomLedger.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { testLog } from '../../helpers/testLog.ts';

/** Every event the log shows, once the relay has published all of them to the topic. */
async function published(pool: Pool, topic: string): Promise<EventEnvelope[]> {
  const total = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  let log: EventEnvelope[] = [];
  await eventually(
    async () => (log = await readLog(pool, { after: START, limit: 100_000 })).length === total,
    30_000,
    'the log to show every event',
  );
  const last = log.at(-1)!.position;
  await eventually(
    async () => {
      const cp = await loadCheckpoint(pool, RELAY_GROUP, topic, 0);
      return cp !== null && comparePositions(cp.position, last) >= 0;
    },
    60_000,
    'the relay to publish every event',
  );
  return log;
}

const ids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);
/** Per account, the order of its events: Kafka keeps it within a partition, not across accounts. */
const byAccount = (events: { id: string; accountId: string }[]) => {
  const m = new Map<string, string[]>();
  for (const e of events) m.set(e.accountId, [...(m.get(e.accountId) ?? []), e.id]);
  return Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
};

t.test('events export and tail read the Kafka topic when Kafka is configured, the store otherwise', async (t) => {
  const db = await testDatabase(t);
  const { kafkaSettings } = await testLog(t, 'kafka', db.pool, 3);
  const topic = eventsTopic(kafkaSettings!.topicPrefix);
  const accounts = await appendRandomAccounts(db.pool, { accounts: 8, steps: 12, seed: 11, prefix: 'kx' });
  const log = await published(db.pool, topic);
  t.ok(log.length > 100, `${log.length} events published`);

  // A batch published twice (a relay crash between send and checkpoint): consumers drop the copies.
  const kafka = createKafka(kafkaSettings!, createLogger('test-dup'));
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: log.slice(10, 30).map((e) => encodeEvent(e)) });
  await producer.disconnect();

  const storeEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: db.url };
  delete storeEnv.KAFKA_BROKERS;
  const kafkaEnv: NodeJS.ProcessEnv = {
    ...storeEnv,
    KAFKA_BROKERS: kafkaSettings!.brokers.join(','),
    KAFKA_TOPIC_PREFIX: kafkaSettings!.topicPrefix,
  };

  const fromKafka = await admin(kafkaEnv, 'events', 'export', '--progress');
  t.equal(fromKafka.code, 0, JSON.stringify(fromKafka.stderr));
  const kafkaLines = fromKafka.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EventEnvelope & { position: string });
  t.equal(kafkaLines.length, log.length, 'every event once: the re-published batch is dropped by position');
  t.same(byAccount(kafkaLines), byAccount(log), 'the same events, each account in commit order');
  const stored = new Map(
    log.map((e) => [e.id, { ...e, position: formatPosition(e.position), prevHash: e.prevHash ?? null }]),
  );
  t.same(
    kafkaLines.map((l) => stored.get(l.id)),
    kafkaLines,
    'each line decoded from Avro equals the stored event, payload and hash link included',
  );
  t.match(
    String(fromKafka.stderr),
    new RegExp(`${log.length + 20}/${log.length + 20} read`),
    'a progress bar over every message of the topic',
  );

  const fromStore = await admin(storeEnv, 'events', 'export');
  t.same(
    ids(fromStore.stdout),
    log.map((e) => e.id),
    'without Kafka: the store, in commit order',
  );

  const mid = log[Math.floor(log.length / 2)]!;
  const filtered = await admin(
    kafkaEnv,
    'events',
    'export',
    '--from',
    formatPosition(mid.position),
    '--type',
    'CreditCharged,CreditsPurchased',
    '--account',
    accounts[2]!,
    '--format',
    'csv',
  );
  t.equal(filtered.code, 0, JSON.stringify(filtered.stderr));
  const rows = filtered.stdout.trim().split('\n');
  t.equal(
    rows[0],
    'position,id,type,version,accountId,streamId,streamVersion,occurredAt,causationId,correlationId,prevHash,payload',
  );
  const expected = log.filter(
    (e) =>
      comparePositions(e.position, mid.position) > 0 &&
      ['CreditCharged', 'CreditsPurchased'].includes(e.type) &&
      e.accountId === accounts[2],
  );
  t.same(
    rows.slice(1).map((r) => r.split(',')[1]),
    expected.map((e) => e.id),
    'from a position (exclusive), by type and account, as CSV',
  );

  const future = await admin(kafkaEnv, 'events', 'export', '--from', '2999-01-01T00:00:00Z');
  t.equal(future.code, 0);
  t.equal(future.stdout, '', 'nothing after a future time (seeks every partition to its end)');
  const past = await admin(kafkaEnv, 'events', 'export', '--from', '2000-01-01T00:00:00Z', '--type', 'AccountOpened');
  t.same(
    ids(past.stdout).sort(),
    log
      .filter((e) => e.type === 'AccountOpened')
      .map((e) => e.id)
      .sort(),
    'from a past time: every account opened',
  );

  // tail follows the topic: what the relay publishes after it started shows up.
  // The program itself (not through npm, which need not pass the signal on), as `npm run admin` runs it.
  const tail = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'services', 'cli.ts'), 'events', 'tail', '--type', 'AccountOpened'],
    { env: kafkaEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  tail.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => tail.once('exit', (code) => r(code)));
  t.teardown(() => void tail.kill('SIGKILL'));
  await eventually(async () => ids(out).length === accounts.length, 60_000, 'tail to print the existing accounts');
  const more = await appendRandomAccounts(db.pool, { accounts: 2, steps: 2, seed: 12, prefix: 'kx' });
  await eventually(
    async () => ids(out).length === accounts.length + more.length,
    60_000,
    'tail to print the accounts opened after it started',
  );
  t.same(
    out
      .trim()
      .split('\n')
      .slice(-2)
      .map((l) => (JSON.parse(l) as { accountId: string }).accountId)
      .sort(),
    [...more].sort(),
    'the new accounts, followed live from Kafka',
  );
  tail.kill('SIGINT');
  const code = await Promise.race([
    exited,
    new Promise<string>((r) => setTimeout(() => r('still running 30 s after SIGINT'), 30_000)),
  ]);
  t.equal(code, 0, 'tail stops cleanly on SIGINT');
});

t.test('the events topic is created to be kept forever: no time or size limit, never compacted', async (t) => {
  const { kafka, settings } = await testKafka(t, 1);
  const admin = kafka.admin();
  await admin.connect();
  t.teardown(() => admin.disconnect());
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: kafkajs.ConfigResourceTypes.TOPIC, name: eventsTopic(settings.topicPrefix) }],
  });
  const entries = Object.fromEntries(described.resources[0]!.configEntries.map((c) => [c.configName, c.configValue]));
  t.match(entries, { 'retention.ms': '-1', 'retention.bytes': '-1', 'cleanup.policy': 'delete' });
});
