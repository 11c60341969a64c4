import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import { START } from '../../events/envelope.ts';
import { eventsTopic, ensureEventsTopic, type KafkaSettings } from '../../infra/kafka/client.ts';
import { encodeEvent } from '../../infra/kafka/codec.ts';
import { partitionCountOf, partitionedSender } from '../../infra/kafka/partitionedSend.ts';
import { createSchemaRegistry, subjectFor } from '../../infra/kafka/schemaRegistry.ts';
import { eventDefinition } from '../../events/registry.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import { HELD_BACK_MS, readAvailable } from '../../infra/eventStore/readLog.ts';
import type { Logger } from '../../infra/logger.ts';
import { leaderLock } from '../../infra/postgres/advisoryLock.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { loadCheckpoint, saveCheckpoint, type Checkpoint } from '../../infra/subscriptions/checkpoints.ts';
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

  const limit = options.batchSize ?? 1000;
  const loop = async () => {
    // The leader is the checkpoint's only writer: kept here once read (a compare-and-set still
    // guards each write), and read again after any failure or a new leadership.
    let cp: Checkpoint | null | undefined;
    while (!stopping) {
      try {
        if (!leader) {
          leader = await lock.tryAcquire();
          if (!leader) {
            await sleep(500);
            continue;
          }
          log.info('relay is leader');
          cp = undefined;
        }
        if (cp === undefined) cp = await loadCheckpoint(pool, RELAY_GROUP, topic, 0);
        // One statement a wake-up: the events, and whether committed ones wait behind an older
        // transaction (it may append nothing, so no notification would follow its end).
        const { events, heldBack } = await readAvailable(pool, { after: cp?.position ?? START, limit });
        if (events.length > 0) {
          const messages = await Promise.all(events.map(encode));
          await send(messages);
          const next: Checkpoint = { position: events[events.length - 1]!.position, kafkaOffset: null };
          await saveCheckpoint(pool, RELAY_GROUP, topic, 0, cp, next);
          cp = next;
          if (events.length === limit) continue;
        }
        await wakeup.wait(heldBack ? HELD_BACK_MS : (options.pollMs ?? 1000));
      } catch (e) {
        if (stopping) break;
        log.error({ err: e }, 'relay step failed; retrying');
        cp = undefined;
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
