import type { Kafka } from 'kafkajs';
import type { KafkaSettings } from '../infra/kafka/client.ts';
import { pingDatabase, type Pool } from '../infra/postgres/pool.ts';
import { kafkaLag, storeLag } from '../infra/subscriptions/lag.ts';

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

/** PostgreSQL answers, Kafka answers (when configured), and no projection lags beyond maxLag. */
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
