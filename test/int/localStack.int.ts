/**
 * The local stack is real: a Kafka broker that takes a topic, a message in and out, and a
 * PostgreSQL that answers SQL; and `npm start`'s persistent PostgreSQL keeps its data across a
 * restart on the same dir, also after a crash left a stale postmaster.pid behind.
 */
import t from 'tap';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { createLogger } from '../../infra/logger.ts';
import { startPostgres } from '../../infra/local/postgres.ts';
import { ensureTopic } from '../../infra/kafka/client.ts';

const log = createLogger('local-stack-test');

t.test('kafka from KAFKA_BROKERS takes a topic, and a produced message comes back', async (t) => {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) return t.fail('KAFKA_BROKERS is not set: run with `npm test`');
  const kafka = new Kafka({ clientId: 'local-stack-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const topic = `local-stack-${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  t.teardown(async () => {
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });
  await ensureTopic(kafka, topic, 1);
  t.ok((await admin.listTopics()).includes(topic), 'topic created');

  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  await producer.send({ topic, messages: [{ key: 'k', value: 'hello from the local stack' }] });
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId: `${topic}-group` });
  t.teardown(() => consumer.disconnect());
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const received = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message within 30 s')), 30_000);
    void consumer.run({
      eachMessage: async ({ message }) => {
        clearTimeout(timer);
        resolve(message.value?.toString() ?? '');
      },
    });
  });
  t.equal(received, 'hello from the local stack');
});

t.test('several processes starting at once all find the new topic led, none fails', async (t) => {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) return t.fail('KAFKA_BROKERS is not set: run with `npm test`');
  const topic = `local-stack-race-${randomBytes(4).toString('hex')}`;
  // Each start has its own client, as each service process does.
  const clients = Array.from(
    { length: 6 },
    (_, i) => new Kafka({ clientId: `race-${i}`, brokers: brokers.split(','), logLevel: logLevel.NOTHING }),
  );
  const admin = clients[0]!.admin();
  await admin.connect();
  t.teardown(async () => {
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });
  const outcomes = await Promise.allSettled(clients.map((kafka) => ensureTopic(kafka, topic, 3)));
  t.same(
    outcomes.map((o) => o.status),
    outcomes.map(() => 'fulfilled'),
    'every start went on',
  );
  const partitions = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]?.partitions ?? [];
  t.equal(partitions.length, 3, 'three partitions');
  t.ok(
    partitions.every((p) => p.leader >= 0),
    'each with a leader',
  );
});

t.test('postgres from DATABASE_URL answers a query', async (t) => {
  const url = process.env.DATABASE_URL;
  if (!url) return t.fail('DATABASE_URL is not set: run with `npm test`');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query<{ answer: number; version: string }>(
    'SELECT 6 * 7 AS answer, version() AS version',
  );
  t.equal(rows[0]?.answer, 42);
  t.match(rows[0]?.version, /^PostgreSQL \d+/);
});

t.test('persistent postgres restarts on its data dir and keeps the data, also after a crash', async (t) => {
  const parent = await mkdtemp(join(tmpdir(), 'audit-pg-persist-'));
  t.teardown(() => rm(parent, { recursive: true, force: true }));
  const dataDir = join(parent, 'pg');

  const first = await startPostgres({ dataDir, persistent: true, log });
  const c1 = new pg.Client({ connectionString: first.url });
  await c1.connect();
  await c1.query('CREATE TABLE kept (v text)');
  await c1.query('INSERT INTO kept VALUES ($1)', ['survives a restart']);
  await c1.end();
  await first.stop();

  // A crashed run leaves postmaster.pid behind, here pointing at a pid that is not a postgres.
  await writeFile(join(dataDir, 'postmaster.pid'), `${process.pid}\n${dataDir}\n`);

  const second = await startPostgres({ dataDir, persistent: true, log });
  const c2 = new pg.Client({ connectionString: second.url });
  t.teardown(async () => {
    await c2.end().catch(() => undefined);
    await second.stop();
  });
  await c2.connect();
  const { rows } = await c2.query<{ v: string }>('SELECT v FROM kept');
  t.same(rows, [{ v: 'survives a restart' }]);
});
