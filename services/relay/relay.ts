import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import { START } from '../../events/envelope.ts';
import { eventsTopic, ensureEventsTopic, type KafkaSettings } from '../../infra/kafka/client.ts';
import { encodeEvent } from '../../infra/kafka/codec.ts';
import { partitionCountOf, partitionedSender } from '../../infra/kafka/partitionedSend.ts';
import { createSchemaRegistry, subjectFor } from '../../infra/kafka/schemaRegistry.ts';
import { eventDefinition } from '../../events/registry.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import { HELD_BACK_MS, heldBackPartitions, logHead, readLog } from '../../infra/eventStore/readLog.ts';
import type { Logger } from '../../infra/logger.ts';
import { leaderLock } from '../../infra/postgres/advisoryLock.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { loadCheckpoint, saveCheckpoint } from '../../infra/subscriptions/checkpoints.ts';
import { sleep } from '../../core/sleep.ts';
import { EVENTS_APPENDED } from '../../infra/wakeups/schema.ts';
import { openWakeup } from '../../infra/wakeups/wakeups.ts';

export const RELAY_GROUP = 'relay';
const RELAY_LOCK = 726_100_002;

export interface RelayOptions {
  pool: Pool;
  kafka: Kafka;
  settings: KafkaSettings;
  log: Logger;
  batchSize?: number;
  /** The safety net: the relay is woken by every commit that appends events and looks anyway this often. */
  pollMs?: number;
}

export interface Relay {
  isLeader(): boolean;
  stop(): Promise<void>;
}

/**
 * Publishes committed events to Kafka in commit order. One relay leads (session advisory lock);
 * others wait to take over. It reads the store in commit order (readLog), sends with an idempotent
 * producer waiting for all in-sync replicas, and only then moves its checkpoint: a crash in between
 * publishes a batch twice (consumers drop the copies by log position), never loses or reorders one.
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  const { pool, kafka, settings, log } = options;
  const topic = eventsTopic(settings.topicPrefix);
  await ensureEventsTopic(kafka, settings);
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    // An idempotent producer keeps its sequence numbers only while it keeps retrying the same batch.
    retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 10_000 },
  });
  await producer.connect();
  const send = partitionedSender(producer, topic, await partitionCountOf(kafka, topic));
  // With a registry, every message is framed with its writer schema's id: a registry that does not
  // answer fails the whole step (retried below), so no batch goes out half framed or skipped.
  const registry = settings.schemaRegistry && createSchemaRegistry(settings.schemaRegistry);
  const encode = async (e: EventEnvelope) => {
    if (!registry) return encodeEvent(e);
    const def = eventDefinition(e.type);
    return encodeEvent(e, {
      schemaId: await registry.register(subjectFor(topic, def), JSON.stringify(def.avroSchema(def.latest))),
    });
  };
  const lock = leaderLock(pool, RELAY_LOCK);
  let leader = false;
  let stopping = false;
  const wakeup = openWakeup(pool, log, EVENTS_APPENDED);

  const loop = async () => {
    let lastHead = -1n;
    let lastPass = 0;
    let woken = true;
    while (!stopping) {
      try {
        if (!leader) {
          leader = await lock.tryAcquire();
          if (!leader) {
            await sleep(500);
            continue;
          }
          log.info('relay is leader');
        }
        const head = await logHead(pool);
        // A commit's notification also covers a late commit that left the head where it was.
        if (!woken && head === lastHead && Date.now() - lastPass < 1000) {
          woken = (await wakeup.wait(options.pollMs ?? 1000)).length > 0;
          continue;
        }
        woken = false;
        lastPass = Date.now();
        const cp = await loadCheckpoint(pool, RELAY_GROUP, topic, 0);
        const events = await readLog(pool, { after: cp?.position ?? START, limit: options.batchSize ?? 1000 });
        if (events.length === 0) {
          lastHead = head;
          if ((await heldBackPartitions(pool)).length > 0) woken = await wakeup.wait(HELD_BACK_MS).then(() => true);
          continue;
        }
        const messages = await Promise.all(events.map(encode));
        await send(messages);
        await saveCheckpoint(pool, RELAY_GROUP, topic, 0, cp, {
          position: events[events.length - 1]!.position,
          kafkaOffset: null,
        });
      } catch (e) {
        if (stopping) break;
        log.error({ err: e }, 'relay step failed; retrying');
        // Losing the session loses the lock too: then start over as a candidate.
        leader = await lock.stillHeld();
        await sleep(500);
      }
    }
  };
  const running = loop();

  return {
    isLeader: () => leader,
    async stop() {
      stopping = true;
      wakeup.close();
      await running;
      await producer.disconnect().catch(() => undefined);
      await lock.release();
    },
  };
}
