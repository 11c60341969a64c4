import type { Kafka } from 'kafkajs';
import type { KafkaSettings } from '../infra/kafka/client.ts';
import { pingDatabase, type Pool } from '../infra/postgres/pool.ts';
import { eventsTopic } from '../infra/kafka/client.ts';
import { kafkaLag, logReaderLag, storeLag } from '../infra/subscriptions/lag.ts';
import { RELAY_GROUP } from './relay/relay.ts';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string; lag?: number }>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

export interface ReadinessDeps {
  pool: Pool;
  kafka?: { kafka: Kafka; settings: KafkaSettings };
  /** Consumer groups whose lag decides readiness (the projections serving reads). */
  groups: string[];
  maxLag: number;
}

const timeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);

/**
 * PostgreSQL answers, Kafka answers (when configured), and no projection lags beyond maxLag. With
 * Kafka, what a projection has yet to read is the relay's lag (committed, not yet on the topic)
 * plus its own behind the topic: both are checked, so a relay that fell behind, or was down, does
 * not look like an idle log.
 */
export function createReadiness(deps: ReadinessDeps): Readiness {
  return {
    async check() {
      const checks: ReadinessReport['checks'] = {};
      try {
        await timeout(pingDatabase(deps.pool), 2000);
        checks.postgres = { ok: true };
      } catch (e) {
        checks.postgres = { ok: false, detail: (e as Error).message };
      }
      if (deps.kafka) {
        try {
          const admin = deps.kafka.kafka.admin();
          await timeout(
            admin
              .connect()
              .then(() => admin.describeCluster())
              .finally(() => admin.disconnect()),
            3000,
          );
          checks.kafka = { ok: true };
        } catch (e) {
          checks.kafka = { ok: false, detail: (e as Error).message };
        }
      }
      if (checks.postgres.ok && deps.kafka) {
        try {
          const topic = eventsTopic(deps.kafka.settings.topicPrefix);
          const lag = await timeout(logReaderLag(deps.pool, RELAY_GROUP, topic, deps.maxLag), 3000);
          checks.relay = { ok: lag <= deps.maxLag, lag };
        } catch (e) {
          checks.relay = { ok: false, detail: (e as Error).message };
        }
      }
      if (checks.postgres.ok) {
        for (const g of deps.groups) {
          try {
            const lag = deps.kafka
              ? await timeout(kafkaLag(deps.pool, deps.kafka.kafka, deps.kafka.settings, g), 3000)
              : await storeLag(deps.pool, g, deps.maxLag);
            checks[g] = { ok: lag <= deps.maxLag, lag };
          } catch (e) {
            checks[g] = { ok: false, detail: (e as Error).message };
          }
        }
      }
      return { ready: Object.values(checks).every((c) => c.ok), checks };
    },
  };
}
