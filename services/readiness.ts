import type { Kafka } from 'kafkajs';
import { LOG_PARTITIONS } from '../infra/eventStore/schema.ts';
import { eventsTopic, type KafkaSettings } from '../infra/kafka/client.ts';
import type { Pool } from '../infra/postgres/pool.ts';

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
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

/** Events a group has yet to apply, counted up to `bound` (beyond it the exact number does not matter). */
async function storeLag(pool: Pool, groupId: string, bound: number): Promise<number> {
  let lag = 0;
  for (let p = 0; p < LOG_PARTITIONS && lag <= bound; p++) {
    const r = await pool.query<{ c: number }>(
      `SELECT count(*)::int AS c FROM (
         SELECT 1 FROM events e
          WHERE e.partition = $2
            AND (e.tx_id, e.seq) > coalesce((SELECT (c.tx_id, c.seq) FROM subscription_checkpoints c
                                              WHERE c.group_id = $1 AND c.source = 'log' AND c.partition = $2), ('0'::xid8, 0::bigint))
          LIMIT $3) x`,
      [groupId, p, bound + 1],
    );
    lag += r.rows[0]!.c;
  }
  return lag;
}

async function kafkaLag(pool: Pool, kafka: Kafka, settings: KafkaSettings, groupId: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topic = eventsTopic(settings.topicPrefix);
    const ends = await admin.fetchTopicOffsets(topic);
    const cps = await pool.query<{ partition: number; kafka_offset: string }>(
      'SELECT partition, kafka_offset FROM subscription_checkpoints WHERE group_id = $1 AND source = $2', [groupId, topic]);
    const at = new Map(cps.rows.map((r) => [r.partition, Number(r.kafka_offset)]));
    return ends.reduce((sum, e) => sum + Math.max(0, Number(e.high) - (at.get(e.partition) ?? Number(e.low))), 0);
  } finally {
    await admin.disconnect();
  }
}

/** PostgreSQL answers, Kafka answers (when configured), and no projection lags beyond maxLag. */
export function createReadiness(deps: ReadinessDeps): Readiness {
  return {
    async check() {
      const checks: ReadinessReport['checks'] = {};
      try {
        await timeout(deps.pool.query('SELECT 1'), 2000);
        checks.postgres = { ok: true };
      } catch (e) {
        checks.postgres = { ok: false, detail: (e as Error).message };
      }
      if (deps.kafka) {
        try {
          const admin = deps.kafka.kafka.admin();
          await timeout(admin.connect().then(() => admin.describeCluster()).finally(() => admin.disconnect()), 3000);
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
